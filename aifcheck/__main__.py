"""python -m aifcheck"""
from .cli import main

main()
