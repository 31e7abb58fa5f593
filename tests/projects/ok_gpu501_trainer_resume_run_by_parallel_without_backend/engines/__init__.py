from engines.supervised import build_trainer
