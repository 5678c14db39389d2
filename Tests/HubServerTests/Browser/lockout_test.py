#!/usr/bin/env python3
"""Password guessing seen from the organizer's browser: Debian's chromium driven by Playwright.

Run by SignInLockoutBrowserTests (Swift) against a real `checkin-hub serve` that trusts this
machine as its proxy, so each browser and the guesser say which client address they come from
in X-Forwarded-For. Environment:

  HUB_URL                                the hub
  ORGANIZER_EMAIL / ORGANIZER_PASSWORD   an organizer
  GUESSES                                wrong passwords the guesser sends, one per address
  SCREENSHOT_DIRS, CHROMIUM              as for dashboard_test.py

The organizer signs in once from the office; a guesser then tries wrong passwords from many
addresses; a browser that never signed in is held back even with the right password; the
organizer's own browser, signed out and at the venue now, is let in (its device cookie) and its
events page says which account is being guessed at.
Prints one line per step and exits non-zero with the reason on the first failure.
"""
import json
import os
import urllib.error
import urllib.request

from playwright.sync_api import expect

from dashboard_common import HUB, fail, launch, screenshot, sign_in, step

EMAIL = os.environ["ORGANIZER_EMAIL"]
PASSWORD = os.environ["ORGANIZER_PASSWORD"]
GUESSES = int(os.environ.get("GUESSES", "30"))


def guess(address, password):
    request = urllib.request.Request(
        f"{HUB}/v1/auth/sign-in", data=json.dumps({"email": EMAIL, "password": password}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def run(browser):
    expect.set_options(timeout=15_000)
    office = browser.new_context(extra_http_headers={"X-Forwarded-For": "198.51.100.10"})
    page = office.new_page()
    sign_in(page, EMAIL, PASSWORD)
    if not any(cookie["name"] == "hub_device" and cookie["httpOnly"] for cookie in office.cookies()):
        fail(f"no HttpOnly device cookie after signing in: {[c['name'] for c in office.cookies()]}")
    expect(page.locator('[data-test="dashboard-guessing-notice"]')).to_have_count(0)
    page.click('[data-test="dashboard-signout"]')
    page.wait_for_url(f"{HUB}/signin**")
    step("the organizer signed in from the office and out again")

    answers = [guess(f"203.0.113.{n}", f"guess-{n}") for n in range(1, GUESSES + 1)]
    step(f"{GUESSES} wrong passwords from {GUESSES} addresses: {answers.count(401)} × 401, {answers.count(429)} × 429")
    if answers.count(429) == 0:
        fail("no guess was held back")

    stranger = browser.new_context(extra_http_headers={"X-Forwarded-For": "192.0.2.50"})
    other = stranger.new_page()
    other.goto(f"{HUB}/signin")
    other.fill('[data-test="dashboard-signin-email"]', EMAIL)
    other.fill('[data-test="dashboard-signin-password"]', PASSWORD)
    other.click('[data-test="dashboard-signin-submit"]')
    expect(other.locator('[data-test="dashboard-signin-error"]')).to_contain_text("Too many attempts")
    screenshot(other, "lockout-new-browser.png")
    step("a browser that never signed in is held back, right password or not")

    # The organizer's own browser, at the venue now: another address, its cookies kept.
    office.set_extra_http_headers({"X-Forwarded-For": "192.0.2.60"})
    sign_in(page, EMAIL, PASSWORD)
    notice = page.locator('[data-test="dashboard-guessing-notice"]')
    expect(notice).to_contain_text(EMAIL)
    expect(notice).to_contain_text(f"{answers.count(401)} wrong passwords")
    expect(notice).to_contain_text("since ")
    screenshot(page, "lockout-notice.png")
    step(f"the organizer's browser is let in and told: {notice.inner_text()}")


launch(run)
