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


# Every element and attribute name the dashboard's own templates write: ASCII, lower case but
# for SVG's viewBox. Anything else on a page came from data.
_INJECTED = """() => {
    const found = [];
    for (const element of document.querySelectorAll('*')) {
        const tag = element.localName;
        if (!/^[a-z][a-z0-9]*$/.test(tag)) found.push('element <' + tag + '>');
        for (const attribute of element.attributes) {
            if (!/^[a-zA-Z][a-zA-Z0-9-]*$/.test(attribute.name) || attribute.name.includes('pwn'))
                found.push('attribute ' + JSON.stringify(attribute.name) + ' on <' + tag + '>');
        }
    }
    for (const meta of document.querySelectorAll('meta[http-equiv]')) found.push('<meta http-equiv=' + meta.getAttribute('http-equiv') + '>');
    for (const form of document.forms) {
        const action = new URL(form.action, location.href);
        if (action.origin !== location.origin) found.push('a form to ' + action.href);
        else if (action.pathname.startsWith('/staff') && location.pathname !== '/staff') found.push('a form to ' + action.pathname);
    }
    return found;
}"""


def injected(page):
    """What on `page` did not come from the dashboard's templates: elements with names no
    template writes (`x-pwn`), attributes that are not ASCII names or say `pwn`, a
    `<meta http-equiv>`, a form to another origin."""
    return page.evaluate(_INJECTED)
