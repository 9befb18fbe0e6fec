"""The shipped rule files (YAML). This file only makes the folder the data package ``naipes.rulesets``."""
