"""What every dashboard browser script shares: steps and failures printed as the Swift suite
expects, screenshots, sign-in and Debian's chromium launched through Playwright.

Environment: HUB_URL, SCREENSHOT_DIRS (folders separated by ':'), CHROMIUM.
"""
import os
import sys

from playwright.sync_api import sync_playwright

HUB = os.environ["HUB_URL"]
SHOTS = [d for d in os.environ.get("SCREENSHOT_DIRS", "").split(":") if d]


def step(text):
    print(f"[dashboard] {text}", flush=True)


def fail(text):
    print(f"[dashboard] FAILED: {text}", flush=True)
    sys.exit(1)


def screenshot(page, name):
    for folder in SHOTS:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def number(page, thing):
    return int(page.locator(f'[data-test="dashboard-{thing}"]').inner_text().strip())


def sign_in(page, email, password):
    page.goto(f"{HUB}/events")
    if "/signin" not in page.url:
        fail(f"an unauthenticated page was not sent to sign-in: {page.url}")
    page.fill('[data-test="dashboard-signin-email"]', email)
    page.fill('[data-test="dashboard-signin-password"]', password)
    page.click('[data-test="dashboard-signin-submit"]')
    page.wait_for_url(f"{HUB}/events**")


def launch(run):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            headless=True,
            # Root in a container has no user namespaces for chromium's sandbox.
            args=["--no-sandbox", "--disable-dev-shm-usage"],
        )
        try:
            run(browser)
        finally:
            browser.close()
