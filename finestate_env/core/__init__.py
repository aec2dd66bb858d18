"""The ground layer: the instance schema, coordinate conventions, action parsing and scoring.

Pure Python over pydantic models; it imports no other layer of the package.
"""
