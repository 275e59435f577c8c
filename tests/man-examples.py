#!/usr/bin/env python3
"""Run every command of the EXAMPLES section of every man page as written.

Usage: man-examples.py TOP_SRCDIR SCRATCH [CORPUS]

Each page gets a scratch directory of its own in which the names its
examples use stand for the bundled data (data/ and examples/ of the
source tree, the two AlexNet ranks as run_ascend_pt/, run/, before/,
after/ ..., the Qwen rank as rank_0_ascend_pt, a Kineto trace of
tests/data as trace.json.gz), streams made from them (run.tsv,
steps.tsv, in.tsv, rank0.tsv ...), and the corpus files a few examples
name.  The page's commands then run in order, in that directory, with
bash -o pipefail, so a stream an example writes is the one the next
reads, as a reader who types them would have it.

A command passes when every program of its pipeline exits 0, it writes
something when its output is not redirected, and, when it reads the
bundled data (or a corpus file that is present), the output the page
shows is what it wrote (each run of lines between "..." marks, with
spaces normalised and the page's wrapping of long lines undone).  Commands whose input is not
here (a corpus file without the corpus, a program not installed) are
named as skipped, never dropped silently.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

TOP, SCRATCH = sys.argv[1], sys.argv[2]
CORPUS = sys.argv[3] if len(sys.argv) > 3 else ''
DATA = os.path.join(TOP, 'examples', 'data')
AX = os.path.join(DATA, 'alexnet_2rank')
QWEN = os.path.join(DATA, 'qwen_pp2dp2')
KINETO = os.path.join(TOP, 'tests', 'data', 'resnet50_step6.json.gz')
# A Kineto trace with GEMMs that prof-roofline -t ties to their aten op
GEMMS = os.path.join(TOP, 'tests', 'data', 'mi300x_torch_compile_triton.json.gz')

PROGRAMS = ('prof-', 'mlr', 'awk', 'grep', 'jq', 'printf', 'cat', 'sh ',
            'sed', 'cut', 'column', 'datamash', 'duckdb', 'sqlite3')

# Names an example reads that stand for the bundled data: link name ->
# target.  Those marked True are the bundled data itself, whose output
# the page may show and is compared.
LINKS = {
    'data': (DATA, True),
    'examples': (os.path.join(TOP, 'examples'), True),
    'run_ascend_pt': (os.path.join(AX, 'rank0_ascend_pt'), False),
    'rank0_ascend_pt': (os.path.join(AX, 'rank0_ascend_pt'), False),
    'rank_0_ascend_pt': (os.path.join(QWEN, 'rank_0_ascend_pt'), True),
    'run': (AX, False),
    'profiles': (DATA, False),
    'before': (os.path.join(AX, 'rank0_ascend_pt'), False),
    'after': (os.path.join(AX, 'rank1_ascend_pt'), False),
    'trace.json.gz': (GEMMS, False),
    'rank0.pt.trace.json.gz': (KINETO, False),
    'bench.csv': (os.path.join(TOP, 'tests', 'data', 'ops-ref-ascend.csv'),
                  False),
}
# Corpus files some examples name (skipped without the corpus).
CORPUS_LINKS = {
    'sglang_Qwen3-8B_prefilldecode.json.gz':
        'pytorch_kineto/tracelens/sglang_Qwen3-8B_prefilldecode.json.gz',
    'resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz':
        'pytorch_kineto/kineto_tb_plugin/'
        'resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz',
    'OPPROF_001': 'ascend_msprof_op_simulator/neo-pan_real_simulator_minimal',
    'host.xplane.pb': 'tpu_xla/xprof/tpu_inference_2.xplane.pb',
}
# Streams made with the tools before the examples run.
STREAMS = {
    'run.tsv': 'prof-ingest -q data/alexnet_2rank | prof-steps',
    'job.tsv': 'prof-ingest -q data/alexnet_2rank',
    'rank0.tsv': 'prof-ingest -q data/alexnet_2rank/rank0_ascend_pt',
    'rank1.tsv': 'prof-ingest -q data/alexnet_2rank/rank1_ascend_pt',
    'steps.tsv': 'prof-ingest -q data/alexnet_2rank | prof-steps | '
                 'prof-merge',
    'in.tsv': 'prof-ingest -q data/alexnet_2rank | prof-steps | '
              'prof-merge | prof-bubbles',
    'prof.tar.zst': 'tar -chf - -C data/alexnet_2rank rank0_ascend_pt | '
                    'zstd -q -c',
    'sim_a.tsv': 'prof-ingest -q OPPROF_001/simulator',
    'sim_b.tsv': 'prof-ingest -q OPPROF_001/simulator',
}
# Directories made for the examples: a job of eight generated ranks.
MADE = {
    'job': 'sh "%s/tests/gen-ranks.sh" job 8' % TOP,
}
# Where a page's examples name another capture: prof-ingest(1) reads a
# torch_npu database export as rank0_ascend_pt (the excerpt of
# tests/data/ascend_pt_db.sql, built with sqlite3).
PAGE_MADE = {
    'prof-ingest.1': {
        'rank0_ascend_pt': 'mkdir -p rank0_ascend_pt/ASCEND_PROFILER_OUTPUT && '
        'sqlite3 rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/'
        'ascend_pytorch_profiler_0.db < "%s/tests/data/ascend_pt_db.sql"'
        % TOP,
    },
}


def unescape(line):
    """A line of an mdoc literal display as it reads."""
    line = line.replace('\\e', '\\').replace('\\&', '')
    for k, v in (('\\(mi', '-'), ('\\(en', '\u2013'), ('\\(em', '\u2014'),
                 ('\\-', '-')):
        line = line.replace(k, v)
    return line


def continues(cmd):
    """Whether the command text CMD goes on past its last line."""
    s = cmd.rstrip()
    if s.endswith(('|', '\\', '&&', '||')):
        return True
    # inside a quoted string (awk and Miller programs)
    quoted = None
    i = 0
    while i < len(s):
        c = s[i]
        if quoted is None and c in '\'"':
            quoted = c
        elif quoted == c:
            quoted = None
        elif c == '\\' and quoted != "'":
            i += 1
        i += 1
    return quoted is not None


def examples(page):
    """The commands of PAGE's EXAMPLES: (command, shown output lines)."""
    out, inside, block, lit = [], False, None, False
    for raw in open(page, encoding='utf-8'):
        raw = raw.rstrip('\n')
        if raw.startswith('.Sh '):
            inside = raw.strip() == '.Sh EXAMPLES'
            continue
        if not inside:
            continue
        if raw.startswith('.Bd -literal'):
            block, lit = [], True
            continue
        if raw.startswith('.Ed') and lit:
            out.extend(split_block(block))
            block, lit = None, False
            continue
        if lit:
            if not raw.startswith('.'):
                block.append(unescape(raw))
            continue
        if raw.startswith('.Dl '):
            s = unescape(raw[4:])
            if s.startswith('$ '):
                out.append((s[2:], []))
            elif s.startswith(PROGRAMS):
                out.append((s, []))
    return out


def split_block(lines):
    """A literal display as commands, each with the output shown."""
    if not any(l.startswith('$ ') for l in lines):
        if lines and lines[0].startswith(PROGRAMS):
            # a script: a command and its continuation lines each
            cmds, cur = [], None
            for l in lines:
                if cur is not None and (continues(cur) or l[:1] in ' \t'
                                        or l.startswith(('}', 'END', '/',
                                                         '!', '$'))):
                    cur += '\n' + l
                else:
                    if cur is not None:
                        cmds.append((cur, []))
                    cur = l
            if cur is not None:
                cmds.append((cur, []))
            return cmds
        return []
    cmds, cur, shown = [], None, []
    for l in lines:
        if l.startswith('$ '):
            if cur is not None:
                cmds.append((cur, shown))
            cur, shown = l[2:], []
        elif cur is not None and not shown and (continues(cur) or
                                                 l[:1] in ' \t'):
            cur += '\n' + l
        elif cur is not None:
            shown.append(l)
    if cur is not None:
        cmds.append((cur, shown))
    return cmds


def norm(s):
    return ' '.join(s.split())


def setup(d, page):
    """The names the examples use, in directory D; what is missing."""
    missing = set()
    made = PAGE_MADE.get(page, {})
    for name, cmd in made.items():
        if shutil.which('sqlite3') is None and 'sqlite3' in cmd:
            missing.add(name)
        elif subprocess.run(['sh', '-c', cmd], cwd=d).returncode != 0:
            sys.exit('setup: %s' % name)
    for name, (target, _) in LINKS.items():
        if name not in made:
            os.symlink(target, os.path.join(d, name))
    for name, rel in CORPUS_LINKS.items():
        p = os.path.join(CORPUS, rel) if CORPUS else ''
        if p and os.path.exists(p):
            os.symlink(p, os.path.join(d, name))
        else:
            missing.add(name.split('.')[0])
    for name, cmd in STREAMS.items():
        if 'OPPROF_001' in cmd and 'OPPROF_001' in missing:
            missing.add(name)
            continue
        r = subprocess.run(['bash', '-o', 'pipefail', '-c',
                            cmd + ' > ' + name], cwd=d,
                           stderr=subprocess.PIPE)
        if r.returncode != 0:
            sys.exit('setup: %s: %s' % (name, r.stderr.decode()))
    for name, cmd in MADE.items():
        if subprocess.run(['sh', '-c', cmd], cwd=d).returncode != 0:
            sys.exit('setup: %s' % name)
    return missing


def redirected(cmd):
    """Whether CMD's standard output goes to a file."""
    last = cmd.rstrip().split('\n')[-1]
    if re.search(r'prof-export\s+-f\s*sqlite', cmd):
        return True
    return bool(re.search(r'(^|\s)>\s*\S+\s*$', last)) or \
        bool(re.search(r'\s-o\s+\S+', cmd)) and 'prof-render' in cmd \
        or bool(re.search(r'prof-report\b', cmd)) and ' -q' in cmd


def written(cmd):
    """The files CMD writes: with '>', -o FILE, prof-export's FILE."""
    return re.findall(r'>\s*([\w./-]+)', cmd) + \
        re.findall(r'\s-o\s+([\w./-]+)', cmd) + \
        re.findall(r'prof-export\s.*\s([\w./-]+\.db)\b', cmd)


def check(d, cmd, shown, missing, known):
    """Run CMD; ('ok'|'skip'|'fail', why)."""
    for m in missing:
        if m in cmd:
            missing.update(written(cmd))
            return 'skip', 'needs %s, which is not here (the corpus, or a tool)' % m
    for prog in ('mlr', 'jq', 'datamash', 'duckdb', 'sqlite3', 'column',
                 'nsys'):
        if re.search(r'(^|[|;]\s*|\n\s*)%s\s' % prog, cmd) and \
                shutil.which(prog) is None:
            missing.update(written(cmd))
            return 'skip', '%s is not installed' % prog
    # "$ cat FILE" shows a file the reader is to write: it is written
    m = re.match(r'cat ([\w./-]+)$', cmd)
    if m and shown and not os.path.exists(os.path.join(d, m.group(1))):
        with open(os.path.join(d, m.group(1)), 'w') as f:
            f.write('\n'.join(shown) + '\n')
    try:
        r = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], cwd=d,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=300)
    except subprocess.TimeoutExpired:
        return 'fail', 'did not end in 300 s'
    out = r.stdout.decode('utf-8', 'replace')
    err = r.stderr.decode('utf-8', 'replace')
    # 141: a reader (head) ended first and a writer got SIGPIPE, which
    # pipefail reports; the reader sees no error
    if r.returncode not in (0, 141):
        return 'fail', 'exit %d: %s' % (r.returncode, err.strip()[-400:])
    if not redirected(cmd) and out.strip() == '':
        return 'fail', 'wrote nothing'
    # Output is compared on data that is here: the bundled profiles, the
    # corpus files present, and what the examples made from them.
    real = re.search(r'(^|[\s/])(data|examples)/|rank_0_ascend_pt', cmd) or \
        any(re.search(r'(^|[\s/])%s\b' % re.escape(k), cmd) for k in known)
    if real:
        known.update(written(cmd))
    if real and shown:
        # each run of lines between "..." marks, in order and with the
        # page's wrapping undone, is in the output
        have = norm(out + '\n' + err)
        runs, run = [], []
        for l in shown + ['...']:
            if l.strip() == '...':
                if run:
                    runs.append(run)
                run = []
            elif l.strip() != '':
                run.append(l)
        for run in runs:
            # "..." inside a line leaves out its middle: the pieces are
            # found in order
            at = 0
            for piece in norm(' '.join(run)).split('...'):
                piece = piece.strip(' ,;')
                if piece == '':
                    continue
                at = have.find(piece, at)
                if at < 0:
                    return 'fail', 'the page shows %r, not written' % piece[:70]
                at += len(piece)
    return 'ok', ''


def main():
    pages = sorted(glob.glob(os.path.join(TOP, 'man', '*.[157]')))
    failed = ran = skipped = 0
    for page in pages:
        cmds = examples(page)
        if not cmds:
            continue
        name = os.path.basename(page)
        d = os.path.join(SCRATCH, name)
        os.makedirs(d)
        missing = setup(d, name)
        known = {k.split('.')[0] for k in CORPUS_LINKS
                 if k.split('.')[0] not in missing}
        for cmd, shown in cmds:
            st, why = check(d, cmd, shown, missing, known)
            first = cmd.split('\n')[0][:70]
            if st == 'ok':
                ran += 1
            elif st == 'skip':
                skipped += 1
                print('SKIP: %s: %s: %s' % (name, first, why))
            else:
                failed += 1
                print('FAIL: %s: %s\n  %s' % (name, first, why))
    print('%d example commands ran as written, %d failed, %d skipped'
          % (ran + failed, failed, skipped))
    sys.exit(1 if failed else 0)


main()
