#!/usr/bin/env python3
"""Writes a program's manual page (section 1, troff) from its own help.

    man-page.py PROGRAM SUMMARY FILES... > PROGRAM.1

PROGRAM is a built `kiosk` or `checkin-hub`: swift-argument-parser prints every command,
option and text of it as JSON with --experimental-dump-help, so the page says what --help says
and cannot drift from it. FILES are "path: what it is" lines for the FILES section.
Used by Kiosk/build-deb.sh.
"""
import json
import os
import subprocess
import sys
import time


def escape(text):
    """troff text: backslashes as \\e, hyphens as \\-, a leading dot or quote made literal."""
    text = (text or "").replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.splitlines() or [""]:
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def name_of(argument):
    preferred = argument.get("preferredName") or {}
    dashes = {"long": "--", "short": "-", "longWithSingleDash": "-"}.get(preferred.get("kind"), "")
    return dashes + preferred.get("name", argument.get("valueName", ""))


def argument_synopsis(argument):
    if argument["kind"] == "positional":
        text = "<" + argument.get("valueName", "value") + ">"
    elif argument["kind"] == "flag":
        text = name_of(argument)
    else:
        text = name_of(argument) + " <" + argument.get("valueName", "value") + ">"
    if argument.get("isRepeating"):
        text += " ..."
    return "[" + text + "]" if argument.get("isOptional") else text


def visible(items):
    return [item for item in items or [] if item.get("shouldDisplay", True)]


def write_command(out, command, path):
    """One command: its synopsis, text and options, then its subcommands."""
    arguments = [a for a in visible(command.get("arguments")) if name_of(a) not in ("--help", "-h", "--version")]
    out.append(".SS " + escape(" ".join(path)))
    synopsis = " ".join(path + [argument_synopsis(a) for a in arguments])
    out.append(".B " + escape(synopsis))
    out.append(".PP")
    out.append(escape(command.get("abstract", "")))
    if command.get("discussion"):
        out.append(".PP")
        out.append(escape(command["discussion"]))
    for argument in arguments:
        out.append(".TP")
        label = name_of(argument) if argument["kind"] != "positional" else "<" + argument.get("valueName", "") + ">"
        if argument["kind"] == "option":
            label += " <" + argument.get("valueName", "value") + ">"
        out.append(".B " + escape(label))
        text = argument.get("abstract", "")
        if argument.get("defaultValue"):
            text += " (default: " + argument["defaultValue"] + ")"
        out.append(escape(text))
    for sub in visible(command.get("subcommands")):
        if sub["commandName"] != "help":
            write_command(out, sub, path + [sub["commandName"]])


def main():
    program, summary, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    name = os.path.basename(program)
    help_json = subprocess.run([program, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout
    root = json.loads(help_json)["command"]
    date = time.strftime("%Y-%m-%d", time.gmtime(int(os.environ.get("SOURCE_DATE_EPOCH", time.time()))))
    version = subprocess.run([program, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    out = [
        '.TH "%s" 1 "%s" "%s %s" "User Commands"' % (name.upper(), date, name, version),
        ".SH NAME",
        escape(name) + " \\- " + escape(summary),
        ".SH SYNOPSIS",
        ".B " + escape(name) + "\n.I command\n[options]",
        ".SH DESCRIPTION",
        escape(root.get("abstract", "")),
    ]
    if root.get("discussion"):
        out += [".PP", escape(root["discussion"])]
    out.append(".SH COMMANDS")
    for sub in visible(root.get("subcommands")):
        if sub["commandName"] != "help":
            write_command(out, sub, [name, sub["commandName"]])
    if files:
        out.append(".SH FILES")
        for line in files:
            path, _, what = line.partition(": ")
            out += [".TP", ".I " + escape(path), escape(what)]
    out += [".SH SEE ALSO", escape("/usr/share/doc/%s/README.md.gz" % os.environ.get("PACKAGE", name))]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
