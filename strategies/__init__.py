"""The shipped strategy files (YAML, one folder per game). This file only makes the folder the data package
``naipes.strategies``."""
