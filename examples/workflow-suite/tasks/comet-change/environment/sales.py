"""The sales table. The change adds a CSV export for it (export.py)."""

SALES = [
    {"region": "north", "amount": 120},
    {"region": "south", "amount": 80},
]
