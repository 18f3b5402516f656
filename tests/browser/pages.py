"""Page-level helpers shared by the browser tests."""
PASSWORD = "Geheim-Passwort-42"


def sign_up(page, base, name, lang="en"):
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.org")
    page.select_option("select[name=language]", lang)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/lobby/")


def create_invitation(page, base, game, players, check=(), uncheck=()):
    page.goto(base + "/invitations/new/")
    page.click(f"a[data-game={game}]")
    page.select_option("select[name=players]", str(players))
    for name in check:
        page.check(f"input[name={name}]")
    for name in uncheck:
        page.uncheck(f"input[name={name}]")
    page.click("main form button[type=submit]")
    page.wait_for_selector("[data-invitation]")
    return page.url


def join(page, invitation_url, starts=True):
    """Joins; if this fills the last seat the match page opens (``starts``)."""
    page.goto(invitation_url)
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#live" if starts else "form[action$='/leave/']")
    return page.url


def current_mover(pages):
    movers = [p for p in pages if p.locator("#match-status[data-my-turn='1']").count()]
    assert len(movers) <= 1, "two pages offer moves at once"
    return movers[0] if movers else None


def play_until_finished(pages, take_turn, max_turns=200):
    """Each page moves when it says it is its turn (``take_turn(page)`` submits one move);
    the others must show the new version pushed over the websocket, without a reload."""
    for _ in range(max_turns):
        if pages[0].locator("#placements").count():
            return
        mover = current_mover(pages)
        assert mover is not None, "nobody is to move"
        version = int(mover.locator("#live").get_attribute("data-version"))
        take_turn(mover)
        for page in pages:
            page.wait_for_selector(f"#live[data-version='{version + 1}']",
                                   timeout=15_000)
    raise AssertionError("the match did not end")


def follow_into_match(page, match_url, timeout=15_000):
    """Brings ``page`` to the match page. A player still on the invitation page is taken there
    by the page itself when the match starts (websocket frame or its polling): wait for that,
    since a second navigation would race it ("navigation interrupted by another navigation")."""
    if "/invitations/" in page.url:
        page.wait_for_url(match_url, timeout=timeout)
    elif page.url != match_url:
        page.goto(match_url)
    page.wait_for_selector("#live")


def db(query):
    """ORM work in a thread of its own whose connection is closed afterwards: from the
    Playwright loop's context it would leave a connection open that blocks dropping the test
    database (PostgreSQL)."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connections

    def run():
        try:
            return query()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()
