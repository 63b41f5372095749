#!/usr/bin/env python3
"""Man pages and bash completion for augur, generated from the commands' own
--help texts (docs/install.md), so neither can drift from the program.

Usage:
  cli-docs.py man AUGUR OUTDIR      OUTDIR/augur.1, OUTDIR/augur-CMD.1 per
                                    command, OUTDIR/augur-CMD-SUB.1 per
                                    subcommand (augur model fit, ...)
  cli-docs.py completion AUGUR FILE the bash completion function _augur

The --help texts follow one layout (src/cli/options.c, tests/cli/options.sh):

  usage: augur CMD ...           (more usage lines indented, or "       augur")
  <blank>
  description paragraphs
  <blank>
  section:                       (options:, subcommands:, examples:, ...)
    LABEL   text                 (an entry; its text goes on indented lines)
  <blank>
  more paragraphs or sections

An entry's label and text are separated by two or more spaces; an options
entry's label is "-s, --long VALUE" (VALUE a|b|c lists the choices).
Anything not in this layout fails the generation (exit 1) with the command
and line, rather than writing a wrong page."""
import os
import re
import subprocess
import sys

def helptext(augur, words):
    """Standard output of `augur WORDS... --help` (or `augur --help`)."""
    # In a sanitizer build (make check-asan) a leak report at exit would fail
    # the build; the tests look for leaks, not this.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    r = subprocess.run([augur] + words + ["--help"], capture_output=True, text=True, check=False,
                       env=env)
    if r.returncode != 0 or not r.stdout.startswith("usage: "):
        sys.exit(f"cli-docs.py: 'augur {' '.join(words + ['--help'])}' exited {r.returncode} "
                 f"without a usage: {r.stderr.strip()[:200]}")
    return r.stdout


def parse(text, where):
    """{'usage': [lines], 'blocks': [('para', [lines]) | ('section', title, [entries] | [lines])]}.
    An entry is (label, [text lines]); example sections keep their lines."""
    lines = text.rstrip("\n").split("\n")
    i = 0
    usage = []
    while i < len(lines) and lines[i] != "":
        usage.append(lines[i][len("usage: "):] if i == 0 else lines[i].strip())
        i += 1
    blocks = []
    while i < len(lines):
        if lines[i] == "":
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i] != "":
            i += 1
        chunk = lines[start:i]
        head = chunk[0]
        if head.endswith(":") and not head.startswith(" ") and len(chunk) > 1 and \
                chunk[1].startswith("  "):
            title = head[:-1]
            body = chunk[1:]
            if title.startswith("example"):
                blocks.append(("section", title, [l[2:] for l in body]))
                continue
            # The text column: where most entries' text starts after two
            # spaces (augur --help pads a 9-letter command with one).
            starts = [m.start(1) for m in (re.match(r"  \S.*?  +(\S)", l) for l in body) if m]
            if not starts:
                sys.exit(f"cli-docs.py: {where} --help: section '{title}' has no entry")
            col = max(set(starts), key=starts.count)
            entries = []
            for n, line in enumerate(body, start + 2):
                label, text = line[:col].strip(), line[col:].strip()
                if len(line) > col and line[col - 1] != " " or not text and not entries:
                    sys.exit(f"cli-docs.py: {where} --help line {n}: not in the column: '{line}'")
                if not label:
                    if not entries:
                        sys.exit(f"cli-docs.py: {where} --help line {n}: text without entry")
                    entries[-1][1].append(text)  # a continuation
                elif line[2] == " ":
                    sys.exit(f"cli-docs.py: {where} --help line {n}: not an entry: '{line}'")
                else:
                    entries.append((label, [text] if text else []))
            blocks.append(("section", title, entries))
        else:
            if any(l.startswith(" ") for l in chunk):
                blocks.append(("pre", chunk))
            else:
                blocks.append(("para", chunk))
    if not usage:
        sys.exit(f"cli-docs.py: {where} --help: no usage line")
    return {"usage": usage, "blocks": blocks}


def roff(s):
    """Text as roff: backslashes and hyphens escaped, no line taken for a request."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + s if s[:1] in (".", "'") else s


def manpage(name, summary, version, doc, see_also):
    out = [f'.TH {name.upper()} 1 "" "augur {version}" "augur manual"',
           ".nh", ".ad l",
           ".SH NAME", f"{roff(name)} \\- {roff(summary)}",
           ".SH SYNOPSIS", ".nf"]
    out += [roff(u) for u in doc["usage"]]
    out += [".fi", ".SH DESCRIPTION"]
    first = True
    for b in doc["blocks"]:
        if b[0] == "para":
            out += ([] if first else [".PP"]) + [roff(l) for l in b[1]]
        elif b[0] == "pre":
            out += [".PP", ".nf"] + [roff(l) for l in b[1]] + [".fi"]
        else:
            title, body = b[1], b[2]
            out.append(f".SH {roff(title.upper())}")
            if title.startswith("example"):
                out += [".nf"] + [roff(l) for l in body] + [".fi"]
            else:
                for label, text in body:
                    out += [".TP", f"\\fB{roff(label)}\\fR"] + [roff(t) for t in text]
        first = False
    out += [".SH SEE ALSO", ",\n".join(f"\\fB{roff(s)}\\fR(1)" for s in see_also)]
    return "\n".join(out) + "\n"


def section(doc, title):
    for b in doc["blocks"]:
        if b[0] == "section" and b[1] == title:
            return b[2]
    return []


def commands(augur):
    """[(words, doc, summary)] for augur, every command and every subcommand."""
    top = parse(helptext(augur, []), "augur")
    out = [([], top, "performance analysis of MPI programs: record, report, diagnose, predict")]
    for name, text in section(top, "commands"):
        doc = parse(helptext(augur, [name]), f"augur {name}")
        out.append(([name], doc, " ".join(text)))
        for sub, subtext in section(doc, "subcommands"):
            out.append(([name, sub], parse(helptext(augur, [name, sub]), f"augur {name} {sub}"),
                        " ".join(subtext)))
    if len(out) < 2:
        sys.exit("cli-docs.py: augur --help lists no command")
    return out


def version(augur):
    r = subprocess.run([augur, "--version"], capture_output=True, text=True, check=True)
    return r.stdout.split()[-1]


def write_man(augur, outdir):
    os.makedirs(outdir, exist_ok=True)
    cmds = commands(augur)
    ver = version(augur)
    names = ["-".join(["augur"] + w) for w, _, _ in cmds]
    for (words, doc, summary), name in zip(cmds, names):
        if not words:
            see = names[1:]
        else:  # the parent, and a command's own subcommands
            see = ["-".join(["augur"] + words[:-1])]
            see += [n for n in names if n.startswith(name + "-")]
        with open(os.path.join(outdir, name + ".1"), "w", encoding="utf-8") as f:
            f.write(manpage(name, summary, ver, doc, see))


def options(doc):
    """(all option spellings, those taking a value, {option: choices})."""
    opts, valued, choices = [], [], {}
    for label, _ in section(doc, "options"):
        words = label.replace(",", "").split()
        names = [w for w in words if w.startswith("-")]
        value = words[len(names)] if len(words) > len(names) else None
        opts += names
        if value:
            valued += names
            if re.fullmatch(r"[a-z0-9]+(\|[a-z0-9]+)+", value):
                for n in names:
                    choices[n] = value.replace("|", " ")
    return opts, valued, choices


def write_completion(augur, path):
    cmds = commands(augur)
    top = cmds[0][1]
    words_cases, choice_cases = [], []
    for words, doc, _ in cmds[1:]:
        opts, valued, choices = options(doc)
        subs = " ".join(n for n, _ in section(doc, "subcommands"))
        cmd = " ".join(words)
        words_cases.append(f"  '{cmd}') opts='{' '.join(opts)}'\n    valued='{' '.join(valued)}'"
                           f" subs='{subs}' ;;")
        choice_cases += [f"  '{cmd} {o}') echo '{c}' ;;" for o, c in sorted(choices.items())]
    topopts, _, _ = options(top)
    names = " ".join(n for n, _ in section(top, "commands"))
    nl = "\n"
    text = f"""# bash completion for augur, generated from the commands' --help by
# scripts/cli-docs.py (do not edit). docs/install.md.
_augur() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD - 1]}}
  local i w cmd='' n=0 opts='' valued='' subs='' choices
  COMPREPLY=()
  # The command words before the cursor (augur model fit: 'model fit'); after
  # '--' comes the program augur runs: bash's own completion.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${{COMP_WORDS[i]}}
    case $w in
    --) return 0 ;;
    -*) ;;
    *)
      if [[ $n -eq 0 || ( $n -eq 1 && " $subs " == *" $w "* ) ]]; then
        cmd="${{cmd:+$cmd }}$w"
        n=$((n + 1))
        _augur_words "$cmd"
      fi
      ;;
    esac
  done
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W '{names} {" ".join(topopts)}' -- "$cur"))
    return 0
  fi
  if [[ " $valued " == *" $prev "* ]]; then # a value: its choices, else files
    choices=$(_augur_choices "$cmd $prev")
    [[ -n $choices ]] && COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n $subs && $n -eq 1 ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  fi
  return 0
}}
# The options of the command words $1, those taking a value, its subcommands.
_augur_words() {{
  opts='' valued='' subs=''
  case $1 in
{nl.join(words_cases)}
  esac
}}
# The values an option takes ('record --mpi': mpich openmpi), if a list.
_augur_choices() {{
  case $1 in
{nl.join(choice_cases)}
  esac
}}
complete -o default -F _augur augur
"""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("man", "completion"):
        sys.exit("usage: cli-docs.py man AUGUR OUTDIR | cli-docs.py completion AUGUR FILE")
    if sys.argv[1] == "man":
        write_man(sys.argv[2], sys.argv[3])
    else:
        write_completion(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
