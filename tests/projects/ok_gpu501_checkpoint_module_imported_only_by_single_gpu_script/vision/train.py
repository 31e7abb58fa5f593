"""Single-GPU entry point: one process builds the launcher and resumes."""
from vision.engine import launcher


def main(build_model, build_optimizer, loader):
    model = build_model().cuda()
    runner = launcher.Launcher("runs/last", model, build_optimizer(model))
    runner.fit(loader, epochs=10)
