import torch
import torch.nn.functional as F

if torch.cuda.is_available():
    torch.zeros(1).cuda()  # create the CUDA context before timing
    torch.empty(0, device="cuda").float()
    F.pad(torch.ones(1), (1, 1)).cuda()
