"""Kibitz's shipped data, installed as the package `kibitz_data`: migrations/, rules/ (rules
cards), pieces/ (piece art), fonts/. `DATA_DIR` is this folder wherever it was installed."""
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent
