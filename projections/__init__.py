"""Views rebuilt from the log: the state view, per-player views, board pictures.

Projections read events and state; they never decide anything.
"""
