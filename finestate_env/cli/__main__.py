import sys

from finestate_env.cli.main import main

sys.exit(main())
