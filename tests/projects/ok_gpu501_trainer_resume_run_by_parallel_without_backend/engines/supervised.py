# Builds the ignite trainer; with a resume folder it restores the model,
# the optimizer and the trainer's state from the latest checkpoint, in
# whatever process runs it.
from pathlib import Path

import torch
from ignite.engine import Engine
from ignite.handlers import Checkpoint, DiskSaver


def build_trainer(step, model, optimizer, scheduler, resume_from=None):
    trainer = Engine(step)
    objects = {"model": model, "optimizer": optimizer, "scheduler": scheduler, "trainer": trainer}
    saver = Checkpoint(objects, DiskSaver("checkpoints", require_empty=False), n_saved=2)
    trainer.add_event_handler("epoch_completed", saver)
    if resume_from is not None:
        latest = max(Path(resume_from).glob("checkpoint_*.pt"), key=lambda p: p.stat().st_mtime)
        state = torch.load(latest.as_posix())
        Checkpoint.load_objects(to_load=objects, checkpoint=state)
    return trainer
