"""``python -m chimera_dsl`` runs the ``chimera`` command."""
from .cli import entry_point

entry_point()
