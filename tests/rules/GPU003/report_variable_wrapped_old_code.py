import torch
import torch.nn as nn
from torch.autograd import Variable

use_cuda = torch.cuda.is_available()


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, layers, classes):
        super(RNN, self).__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, classes)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1, :])


rnn = RNN(28, 128, 2, 10)
if use_cuda:
    rnn.cuda()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(rnn.parameters(), lr=0.01)

for epoch in range(2):
    for i, (images, labels) in enumerate(train_loader):
        images = Variable(images.view(-1, 28, 28))
        labels = Variable(labels)
        if use_cuda:
            images.cuda()  # expect: GPU003
            labels.cuda()  # expect: GPU003
        optimizer.zero_grad()
        outputs = rnn(images)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
