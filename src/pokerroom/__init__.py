"""pokerroom: an open-source online poker room.

Layers import one way (see DESIGN.md): cards and rng, evaluation, rules,
engine, table, history, store, server, bots, web, cli. Importing the top
package loads nothing heavy; each layer is imported where it is used.
"""

__version__ = "0.1.0"
