"""CRUX 2023 scores as text tables or JSON."""
