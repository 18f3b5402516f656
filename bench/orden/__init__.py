"""Der Orden's deck search and balance: ``bench/run.py orden <job>`` (cli.py)."""
