"""warledger: the command-line interface and a small public API.

    from warledger import GameService, load_script, run_script
"""

from replay.service import GameService
from warledger.script import load_script, run_script

__all__ = ["GameService", "load_script", "run_script"]
