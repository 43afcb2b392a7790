"""``python -m lifeline_agent <torchrun arguments>``: the same as ``python -m lifeline_agent.run``."""

from .run import main

main()
