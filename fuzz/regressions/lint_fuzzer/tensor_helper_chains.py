import torch
def p0(a):
    a.cuda()
    return a
def p1(a):
    p0(a)
    p0(a)
    p0(a)
    p0(a)
    p0(a)
    p0(a)
    p0(a)
    p0(a)
    return a
def p2(a):
    p1(a)
    p1(a)
    p1(a)
    p1(a)
    p1(a)
    p1(a)
    p1(a)
    p1(a)
    return a
def p3(a):
    p2(a)
    p2(a)
    p2(a)
    p2(a)
    p2(a)
    p2(a)
    p2(a)
    p2(a)
    return a
def p4(a):
    p3(a)
    p3(a)
    p3(a)
    p3(a)
    p3(a)
    p3(a)
    p3(a)
    p3(a)
    return a
def p5(a):
    p4(a)
    p4(a)
    p4(a)
    p4(a)
    p4(a)
    p4(a)
    p4(a)
    p4(a)
    return a
def p6(a):
    p5(a)
    p5(a)
    p5(a)
    p5(a)
    p5(a)
    p5(a)
    p5(a)
    p5(a)
    return a
def p7(a):
    p6(a)
    p6(a)
    p6(a)
    p6(a)
    p6(a)
    p6(a)
    p6(a)
    p6(a)
    return a
p7(torch.ones(2))
p7(torch.ones(2))
p7(torch.ones(2))
p7(torch.ones(2))
p7(torch.ones(2))
p7(torch.ones(2))
p7(torch.ones(2))
p7(torch.ones(2))
def h0(x):
    return torch.zeros(3)
def h1(x):
    if x == 0:
        return h0(x) + h0(x)
    if x == 1:
        return h0(x) + h0(x)
    if x == 2:
        return h0(x) + h0(x)
    if x == 3:
        return h0(x) + h0(x)
    if x == 4:
        return h0(x) + h0(x)
    if x == 5:
        return h0(x) + h0(x)
    if x == 6:
        return h0(x) + h0(x)
    if x == 7:
        return h0(x) + h0(x)
    return h0(x)
def h2(x):
    if x == 0:
        return h1(x) + h1(x)
    if x == 1:
        return h1(x) + h1(x)
    if x == 2:
        return h1(x) + h1(x)
    if x == 3:
        return h1(x) + h1(x)
    if x == 4:
        return h1(x) + h1(x)
    if x == 5:
        return h1(x) + h1(x)
    if x == 6:
        return h1(x) + h1(x)
    if x == 7:
        return h1(x) + h1(x)
    return h1(x)
def h3(x):
    if x == 0:
        return h2(x) + h2(x)
    if x == 1:
        return h2(x) + h2(x)
    if x == 2:
        return h2(x) + h2(x)
    if x == 3:
        return h2(x) + h2(x)
    if x == 4:
        return h2(x) + h2(x)
    if x == 5:
        return h2(x) + h2(x)
    if x == 6:
        return h2(x) + h2(x)
    if x == 7:
        return h2(x) + h2(x)
    return h2(x)
def h4(x):
    if x == 0:
        return h3(x) + h3(x)
    if x == 1:
        return h3(x) + h3(x)
    if x == 2:
        return h3(x) + h3(x)
    if x == 3:
        return h3(x) + h3(x)
    if x == 4:
        return h3(x) + h3(x)
    if x == 5:
        return h3(x) + h3(x)
    if x == 6:
        return h3(x) + h3(x)
    if x == 7:
        return h3(x) + h3(x)
    return h3(x)
def h5(x):
    if x == 0:
        return h4(x) + h4(x)
    if x == 1:
        return h4(x) + h4(x)
    if x == 2:
        return h4(x) + h4(x)
    if x == 3:
        return h4(x) + h4(x)
    if x == 4:
        return h4(x) + h4(x)
    if x == 5:
        return h4(x) + h4(x)
    if x == 6:
        return h4(x) + h4(x)
    if x == 7:
        return h4(x) + h4(x)
    return h4(x)
def h6(x):
    if x == 0:
        return h5(x) + h5(x)
    if x == 1:
        return h5(x) + h5(x)
    if x == 2:
        return h5(x) + h5(x)
    if x == 3:
        return h5(x) + h5(x)
    if x == 4:
        return h5(x) + h5(x)
    if x == 5:
        return h5(x) + h5(x)
    if x == 6:
        return h5(x) + h5(x)
    if x == 7:
        return h5(x) + h5(x)
    return h5(x)
def h7(x):
    if x == 0:
        return h6(x) + h6(x)
    if x == 1:
        return h6(x) + h6(x)
    if x == 2:
        return h6(x) + h6(x)
    if x == 3:
        return h6(x) + h6(x)
    if x == 4:
        return h6(x) + h6(x)
    if x == 5:
        return h6(x) + h6(x)
    if x == 6:
        return h6(x) + h6(x)
    if x == 7:
        return h6(x) + h6(x)
    return h6(x)
t = h7(0)
t.cuda()
