# Two commands for a fresh machine:
#   make run    set up and start the site with demo data (SQLite, in-memory layers)
#   make test   run the whole test suite
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
# Django 6 needs Python 3.12+; prefer 3.12, the version the suite is run on.
PYTHON ?= $(shell for p in python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12 python3.13 $$HOME/.pyenv/versions/3.13*/bin/python3.13; do command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { command -v $$p; break; }; done)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup install install-dev browser nginx migrate demo serve web ws worker mailer beat test-real messages lint

# requirements.txt: what the site runs on (production installs only this);
# requirements-dev.txt: that plus the tests, benchmarks and tools.
$(VENV)/.installed: requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Debian's chromium for the browser tests (Playwright drives it; no browser download).
browser:
	@command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }

# Debian's nginx for the reverse-proxy drill (tests/drills/test_nginx_two_nodes.py; deploy/).
nginx:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { apt-get update -qq && apt-get install -y -qq nginx >/dev/null; }

migrate: install
	mkdir -p var
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

# Demo mails go to files under var/mail/ (settings: the embedded default's file backend), and
# the site's address is printed once daphne listens, after its own start-up lines.
run: demo
	$(PY) manage.py collectstatic --noinput -v 0
	@SPIELTISCH_CLOCK_THREAD=1 PYTHONPATH=platform:. $(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application & \
	  pid=$$!; trap 'kill $$pid 2>/dev/null' INT TERM EXIT; \
	  $(PY) tools/wait_port.py $(HOST) $(PORT) && \
	  echo "Site: http://$(HOST):$(PORT)/  (demo users alice, bob, carol, dieter; password 'spieltisch'; mails in var/mail/)"; \
	  wait $$pid

# Real services: start these beside `serve` with DATABASE_URL and REDIS_URL set.
serve: migrate
	$(PY) manage.py collectstatic --noinput -v 0
	PYTHONPATH=platform:. $(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application
# Behind a reverse proxy: /ws/ to `ws`, everything else to `web` (docs/performance.md, "Measured choices").
web: migrate
	$(PY) manage.py collectstatic --noinput -v 0
	PYTHONPATH=platform:. DB_CONN_MAX_AGE=$${DB_CONN_MAX_AGE:-60} $(VENV)/bin/gunicorn config.wsgi:application -b $(HOST):$(PORT) -w 3 -k web.shedding.QueueTimedWorker --threads 4 --keep-alive 75
ws: install
	PYTHONPATH=platform:. DB_CONN_MAX_AGE=$${DB_CONN_MAX_AGE:-60} $(VENV)/bin/uvicorn config.asgi:application --host $(HOST) --port $${WS_PORT:-8001} --workers $${WS_WORKERS:-2} --no-access-log --ws web.wsprotocol:Protocol
worker: install
	PYTHONPATH=platform:. $(VENV)/bin/celery -A config worker -l info -Q celery,notifications --without-gossip --without-mingle
# E-mail and push sends wait on the network: a worker of their own with many processes
# (10,000 mails in 54 s with 16; docs/performance.md, "Notifications").
mailer: install
	PYTHONPATH=platform:. $(VENV)/bin/celery -A config worker -l info -Q notifications -c 16 -n mailer@%h --without-gossip --without-mingle
beat: install
	PYTHONPATH=platform:. $(VENV)/bin/celery -A config beat -l info

test: install-dev browser nginx
	$(VENV)/bin/ruff check .
	bash .ci/test-suite

lint: install-dev
	$(VENV)/bin/ruff check .

messages: install-dev
	$(PY) manage.py makemessages -l de --no-location --no-obsolete --ignore=.venv --ignore=tests --ignore=bench --ignore=var
	$(PY) locale/tools/check_de.py
