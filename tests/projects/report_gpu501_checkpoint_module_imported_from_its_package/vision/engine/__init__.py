"""The training engine of the vision package."""
