def defaults():
    return {"lr": 0.1, "epochs": 10}
