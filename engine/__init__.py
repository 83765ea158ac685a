"""rollbook's engine: dice, tables and game systems in pure Python.

Runs unchanged in CPython and in Pyodide; imports neither mkdocs, markdown nor yaml.
"""
