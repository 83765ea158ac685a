"""Placeholder: this command group is not written yet."""

import argparse


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add this group's commands to the ``rollbook`` parser."""
