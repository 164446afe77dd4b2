#!/usr/bin/env python3
"""Filter tests: a patched ffmpeg (tools/build-ffmpeg) running libvmaf_hip on tests/fixtures.

    run_filter_tests.py TEST --probe PROBE --shim SHIM [--rcpss-fingerprint PROGRAM]
                        [--fixtures DIR] [--source-root DIR]
    run_filter_tests.py --list

Each TEST is one meson test (suite 'filter'); see TESTS at the end for what each checks.
Environment:
    VMAFHIP_TEST_FFMPEG   the patched ffmpeg, absolute or relative to the source tree
                          (default: build/test-ffmpeg-8.1/ffmpeg, tools/test-all's, else
                          the 9.0, then the 7.1 one, else the same in build/ffmpeg-*/);
                          ffprobe is taken from its folder
    VMAFHIP_TEST_BACKEND  backend= of every run: cpu (default; CI has no GPU) or hip
    VMAFHIP_TEST_VERBOSE  1: print every command and keep the temporary files
Exit status: 0 passed, 1 failed, 77 skipped (no patched ffmpeg, or a precondition is missing).

The filter is a drop-in for FFmpeg's libvmaf filter: options model, feature, log_path,
log_fmt, pool, n_threads, n_subsample (plus backend, device, queue_depth, gpu_wait, share_ref
and framesync's).
Its default run is libvmaf's default (model vmaf_v0.6.1, so ADM, VIF and motion) plus psnr
and float_ssim; `feature=` (empty) gives exactly libvmaf's default output.

Quick start for a new case: write `def test_name(t):` using t.score() (runs the filter,
returns the output frames with their lavfi.libvmaf_hip.* tags), t.check() and t.fail(),
and add it to TESTS.
"""
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SKIP = 77
PREFIX = 'lavfi.libvmaf_hip.'
BACKEND = os.environ.get('VMAFHIP_TEST_BACKEND', 'cpu')
VERBOSE = os.environ.get('VMAFHIP_TEST_VERBOSE') == '1'

# libvmaf's flags of the natural pairs' goldens, in the filter's syntax (tests/fixtures/MANIFEST.md).
ALL_FEATURES = 'name=psnr|name=float_ssim|name=adm|name=vif|name=motion'
DEFAULT_MODEL = 'version=vmaf_v0.6.1'

# The scores of each feature extractor and of the default model, with libvmaf's names.
KEYS = {
    'psnr': ['psnr_y', 'psnr_cb', 'psnr_cr'],
    'float_ssim': ['float_ssim'],
    'adm': ['integer_adm2', 'integer_aim', 'integer_adm3', 'integer_adm_scale0',
            'integer_adm_scale1', 'integer_adm_scale2', 'integer_adm_scale3'],
    'vif': ['integer_vif_scale0', 'integer_vif_scale1', 'integer_vif_scale2', 'integer_vif_scale3'],
    'motion': ['VMAF_integer_feature_motion_sad_score', 'integer_motion2', 'integer_motion3'],
    'vmaf': ['vmaf'],
}
# What vmaf_v0.6.1 reads: libvmaf's default output is these extractors' scores and vmaf.
MODEL_FEATURES = ['adm', 'vif', 'motion', 'vmaf']

# FFmpeg libvmaf's options (libavfilter/vf_libvmaf.c of FFmpeg 7.1, 8.1 and 9.0): name ->
# (type as ffmpeg -h prints it, default as it prints it or None). Used when the FFmpeg
# sources are not at hand; the test reads the table from them when they are.
LIBVMAF_OPTIONS = {
    'log_path': ('string', None),
    'log_fmt': ('string', '"xml"'),
    'pool': ('string', None),
    'n_threads': ('int', '0'),
    'n_subsample': ('int', '1'),
    'model': ('string', '"version=vmaf_v0.6.1"'),
    'feature': ('string', None),
}
# Options that libvmaf_hip has and libvmaf has not, with their defaults.
OWN_OPTIONS = {'backend': ('int', 'auto'), 'device': ('int', '0'), 'queue_depth': ('int', '0'),
               'gpu_wait': ('boolean', 'false'), 'share_ref': ('boolean', 'true')}
# The one deliberate difference: psnr and float_ssim are computed by default.
OWN_DEFAULTS = {'feature': '"name=psnr|name=float_ssim"'}


class Skip(Exception):
    pass


class Fail(Exception):
    pass


class Fixture:
    """One raw .yuv file of tests/fixtures: <content>_<W>x<H>_<pix_fmt>_<tag>.yuv."""

    def __init__(self, path):
        self.path = path
        m = re.match(r'(.+)_(\d+)x(\d+)_([a-z0-9]+)_([^_]+)\.yuv$', os.path.basename(path))
        if not m:
            raise Fail(f'fixture name not understood: {path}')
        self.content, self.w, self.h, self.pix_fmt, self.tag = (
            m[1], int(m[2]), int(m[3]), m[4], m[5])
        self.frames = os.path.getsize(path) // frame_size(self.w, self.h, self.pix_fmt)

    def input(self, extra=()):
        return raw_input(self.path, self.w, self.h, self.pix_fmt, extra)


def frame_size(w, h, pix_fmt):
    bps = 1 if re.fullmatch(r'(gray|yuv4\d\dp)', pix_fmt) else 2
    cw, ch = (w + 1) // 2, (h + 1) // 2
    chroma = {'gray': 0, 'yuv420p': 2 * cw * ch, 'yuv422p': 2 * cw * h, 'yuv444p': 2 * w * h}
    return (w * h + chroma[re.sub(r'\d+le$', '', pix_fmt)]) * bps


def raw_input(path, w, h, pix_fmt, extra=()):
    return ['-f', 'rawvideo', '-video_size', f'{w}x{h}', '-pixel_format', pix_fmt,
            '-framerate', '25', *extra, '-i', path]


def q(value):
    """An option value for a filtergraph: quoted for the graph parser, ':' escaped for the
    option parser (so a model entry keeps its key=value:key=value)."""
    return "'" + value.replace(':', '\\:') + "'"


def load_json(path):
    with open(path) as f:
        return json.load(f)


class Pair:
    """A fixture pair with a golden: distorted and reference fixture plus libvmaf's scores
    (golden/<stem>.fullprec.json, or the plain-C .cpumask63 one where libvmaf's SIMD
    paths differ)."""

    def __init__(self, t, stem):
        self.stem = stem
        m = re.match(r'(.+_\d+x\d+_[a-z0-9]+)__(\w+)_vs_(\w+)$', stem)
        self.ref = Fixture(os.path.join(t.fixtures, f'{m[1]}_{m[2]}.yuv'))
        self.dis = Fixture(os.path.join(t.fixtures, f'{m[1]}_{m[3]}.yuv'))
        self.base = os.path.join(t.fixtures, 'golden', stem)
        path = t.golden_file(stem + '.cpumask63.fullprec.json')
        if not os.path.exists(path):
            path = t.golden_file(stem + '.fullprec.json')
        self.golden_json = load_json(path)
        self.golden = [fr['metrics'] for fr in self.golden_json['frames']]
        self.golden_path = path

    @property
    def natural(self):
        """Made with libvmaf's model run (the natural pairs); else a feature-only -n run."""
        return 'vmaf' in self.golden[0]

    def features(self):
        """The extractors of the golden's run whose values are well defined at this size:
        libvmaf's ADM reads out of bounds or uninitialised memory below 37x33
        (MANIFEST.md), so its golden there is not a reference."""
        keys = self.golden[0]
        out = [f for f in ('psnr', 'float_ssim', 'adm', 'vif', 'motion') if KEYS[f][0] in keys]
        if 'adm' in out and (self.ref.w < 37 or self.ref.h < 33):
            out.remove('adm')
        return out

    def keys(self, features):
        """The score names of `features` (and 'vmaf') for this pair, in no order."""
        gray = self.ref.pix_fmt.startswith('gray')
        return {k for f in features for k in KEYS[f]
                if not (gray and k in ('psnr_cb', 'psnr_cr'))}

    def input(self):
        return self.dis.input() + self.ref.input()


class Test:
    def __init__(self, args):
        self.source = args['source_root']
        self.fixtures = args['fixtures']
        self.probe = args['probe']
        self.shim = args['shim']
        self.rcpss_kind = None
        if args['rcpss_fingerprint']:
            self.rcpss_kind = 'rcpss-' + subprocess.run(
                [args['rcpss_fingerprint']], capture_output=True, text=True, check=True).stdout.strip()
        self.ffmpeg = self.find_ffmpeg()
        self.ffprobe = os.path.join(os.path.dirname(self.ffmpeg), 'ffprobe')
        self.tmp = tempfile.mkdtemp(prefix='vmafhip-filter-')
        self.failures = []
        self._pairs = None

    def golden_file(self, name):
        """golden/<name>, or golden/rcpss-<fingerprint>/<name> where one was made on processors
        of this one's rcpss kind (float_adm's values depend on it: tests/common/rcpss.h)."""
        if self.rcpss_kind:
            variant = os.path.join(self.fixtures, 'golden', self.rcpss_kind, name)
            if os.path.exists(variant):
                return variant
        return os.path.join(self.fixtures, 'golden', name)

    def find_ffmpeg(self):
        env = os.environ.get('VMAFHIP_TEST_FFMPEG')
        if env and not os.path.isabs(env) and not os.path.exists(env):
            env = os.path.join(self.source, env)  # meson runs tests in the build folder
        candidates = [env] if env else [
            os.path.join(self.source, 'build', f'{kind}ffmpeg-{v}', 'ffmpeg')
            for kind in ('test-', '') for v in ('8.1', '9.0', '7.1')]
        for c in candidates:
            if c and os.access(c, os.X_OK):
                break
        else:
            raise Skip('no patched ffmpeg: build one with tools/build-ffmpeg <version> --minimal '
                       f'or set VMAFHIP_TEST_FFMPEG (looked for {", ".join(candidates)})')
        c = os.path.abspath(c)
        r = subprocess.run([c, '-hide_banner', '-h', 'filter=libvmaf_hip'],
                           capture_output=True, text=True)
        if 'libvmaf_hip AVOptions' not in r.stdout:
            raise Skip(f'{c} has no libvmaf_hip filter: build it with tools/build-ffmpeg')
        print(f'ffmpeg: {c}; backend={BACKEND}')
        return c

    # --- fixtures ---------------------------------------------------------
    def pairs(self):
        """Every fixture pair whose golden is a libvmaf run of the pair itself: a stem with a
        <stem>.fullprec.json (or .cpumask63.fullprec.json) and both .yuv files. The motion,
        VIF, model and extra goldens are variants for other tests."""
        if self._pairs is None:
            stems = set()
            for p in glob.glob(os.path.join(self.fixtures, 'golden', '*.fullprec.json')):
                stem, variant = os.path.basename(p).split('.', 1)
                if variant not in ('fullprec.json', 'cpumask63.fullprec.json'):
                    continue
                m = re.match(r'(.+_\d+x\d+_[a-z0-9]+)__(\w+)_vs_(\w+)$', stem)
                if m and all(os.path.exists(os.path.join(self.fixtures, f'{m[1]}_{tag}.yuv'))
                             for tag in (m[2], m[3])):
                    stems.add(stem)
            self._pairs = [Pair(self, s) for s in sorted(stems)]
            if not self._pairs:
                raise Fail(f'no fixture pair with a golden in {self.fixtures}')
        return self._pairs

    def pair(self, stem):
        for p in self.pairs():
            if p.stem == stem:
                return p
        raise Fail(f'fixture pair {stem} not found')

    # --- running --------------------------------------------------------
    def run(self, cmd, expect_ok=True, env=None, timeout=900):
        if VERBOSE:
            print('+', ' '.join(cmd))
        full_env = dict(os.environ)
        full_env.update(env or {})
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise Fail(f'command timed out after {timeout} s (a stalled graph?): {" ".join(cmd)}\n'
                       f'{(e.stderr or b"")[-2000:]}')
        if expect_ok and r.returncode != 0:
            raise Fail(f'command failed ({r.returncode}): {" ".join(cmd)}\n{r.stderr[-3000:]}')
        return r

    def ffmpeg_cmd(self, *args):
        return [self.ffmpeg, '-nostdin', '-hide_banner', '-y', *args]

    def tmpfile(self, name):
        return os.path.join(self.tmp, name)

    def score(self, inputs, graph, outputs=1, expect_ok=True, env=None, extra_out=(),
              wrapper=(), timeout=900):
        """Run ffmpeg on inputs with filtergraph `graph`, whose outputs [o0], [o1], ... each
        get a metadata=print file and a framecrc. Returns (list per output of frames, result),
        each frame {'n', 'pts', 'crc', 'tags'}; with expect_ok=False the frames are those
        written before ffmpeg stopped."""
        cmd = list(wrapper) + self.ffmpeg_cmd(*inputs)
        chains, maps = [], []
        for i in range(outputs):
            for f in (self.tmpfile(f'meta{i}.txt'), self.tmpfile(f'crc{i}.txt')):
                if os.path.exists(f):
                    os.remove(f)
            chains.append(f'[o{i}]metadata=print:file={self.tmpfile(f"meta{i}.txt")}[m{i}]')
            maps += ['-map', f'[m{i}]', *extra_out, '-c:v', 'rawvideo', '-f', 'framecrc',
                     self.tmpfile(f'crc{i}.txt')]
        cmd += ['-filter_complex', ';'.join([graph] + chains)] + maps
        r = self.run(cmd, expect_ok=expect_ok, env=env, timeout=timeout)
        if r.returncode != 0 and expect_ok:
            return None, r
        return [self.read_output(i) for i in range(outputs)], r

    def read_output(self, i):
        frames = []
        path = self.tmpfile(f'crc{i}.txt')
        for line in (open(path).read().splitlines() if os.path.exists(path) else []):
            if line.startswith('#'):
                continue
            fields = [x.strip() for x in line.split(',')]
            frames.append({'n': len(frames), 'pts': int(fields[2]), 'crc': fields[5], 'tags': {}})
        meta = self.tmpfile(f'meta{i}.txt')
        for n, tags in parse_print(open(meta).read() if os.path.exists(meta) else '').items():
            if n >= len(frames):
                continue  # metadata saw it, but the output stopped before (-frames:v)
            frames[n]['tags'] = tags
        return frames

    def filt(self, opts=''):
        """libvmaf_hip with the test backend and more options; on the GPU with gpu_wait, so
        that every frame is scored there (test_handover scores without it)."""
        wait = ':gpu_wait=1' if BACKEND != 'cpu' else ''
        return f'libvmaf_hip=backend={BACKEND}{wait}' + (f':{opts}' if opts else '')

    def probe_scores(self, w, h, pix_fmt, dis, ref, features='', models=''):
        """The library's scores of raw files through its public API (vmafhip_probe), as
        metadata=print would print them: [{name: '%.6f'}] per scored frame."""
        r = self.run([self.probe, 'score', str(w), str(h), pix_fmt, dis, ref,
                      '-f', features, '-m', models, '-b', BACKEND])
        return list(parse_print(r.stdout).values())

    def gpu_count(self):
        return int(self.run([self.probe, 'devices']).stdout.strip() or 0)

    # --- checking -------------------------------------------------------
    def check(self, cond, msg):
        if not cond:
            self.fail(msg)
        return cond

    def fail(self, msg):
        self.failures.append(msg)
        print('FAIL:', msg)

    def same_value(self, key, value, gold, gpu=None):
        """A metadata value ('%.6f') against libvmaf's double: equal as printed; float_ssim
        from a GPU within 1e-6 (plus the rounding of both prints)."""
        if value == '%.6f' % gold:
            return True
        gpu = BACKEND != 'cpu' if gpu is None else gpu
        return gpu and key.startswith('float_ssim') and abs(float(value) - gold) <= 1.5e-6

    def compare_golden(self, frames, pair, keys, what, golden=None, gpu=None):
        """Every frame has exactly the scores `keys`, each equal to libvmaf's value printed
        %.6f. Returns the number of values compared."""
        golden = pair.golden if golden is None else golden
        self.check(len(frames) == len(golden),
                   f'{what}: {len(frames)} frames output, the golden has {len(golden)}')
        nb = 0
        for fr, gold in zip(frames, golden):
            tags = fr['tags']
            missing, extra = sorted(set(keys) - set(tags)), sorted(set(tags) - set(keys))
            self.check(not missing, f'{what}: frame {fr["n"]}: no {", ".join(missing)}')
            self.check(not extra, f'{what}: frame {fr["n"]}: unexpected {", ".join(extra)}')
            for k in sorted(set(keys) & set(tags)):
                if not self.check(k in gold, f'{what}: {k} is not in the golden '
                                  f'{os.path.basename(pair.golden_path)}'):
                    continue
                self.check(self.same_value(k, tags[k], gold[k], gpu),
                           f'{what}: frame {fr["n"]}: {k}={tags[k]}, libvmaf {gold[k]:.6f}')
                nb += 1
        return nb


def parse_print(text):
    """metadata=print output -> {frame number: {name: value}} for our keys."""
    out, cur = {}, None
    for line in text.splitlines():
        line = re.sub(r'^\[Parsed_metadata[^]]*\] ', '', line)
        m = re.match(r'frame:(\d+)(\s|$)', line)
        if m:
            cur = out.setdefault(int(m[1]), {})
        elif cur is not None and line.startswith(PREFIX):
            k, v = line[len(PREFIX):].split('=', 1)
            cur[k] = v
    return out


def vmaf_score_lines(stderr):
    """The "VMAF score: X" lines as FFmpeg's libvmaf prints them (what tools parse)."""
    return re.findall(r'^\[[^]]+\] VMAF score: (\S+)$', stderr, re.M)


def pool(values, method):
    """libvmaf's pooling of per-frame doubles."""
    if method == 'min':
        return min(values)
    if method == 'max':
        return max(values)
    if method == 'harmonic_mean':
        return len(values) / sum(1 / (v + 1) for v in values) - 1
    return sum(values) / len(values)


# --- golden runs --------------------------------------------------------------
def golden_test(t, what):
    """Each fixture pair through the filter: 'all' with the feature set of its golden (the
    natural pairs: the five extractors and model vmaf_v0.6.1; the minsize pairs: their
    extractors, no model); a feature name: that extractor alone (model= empty); 'vmaf': the
    default model alone (feature= empty, libvmaf's default run). Every frame has exactly
    the expected scores, each equal to the golden printed %.6f (float_ssim on a GPU within
    1e-6)."""
    nb = runs = 0
    for p in t.pairs():
        feats = p.features()
        if what == 'all':
            keys = p.keys(feats + (['vmaf'] if p.natural else []))
            opts = f"feature='{'|'.join('name=' + f for f in feats)}'"
            opts += f':model={DEFAULT_MODEL}' if p.natural else ':model='
        elif what == 'vmaf':
            if not p.natural:
                continue
            keys = p.keys(MODEL_FEATURES)
            opts = 'feature='  # the model's default, version=vmaf_v0.6.1
        else:
            if what not in feats:
                continue
            keys = p.keys([what])
            opts = f'feature=name={what}:model='
        (frames,), _ = t.score(p.input(), f'[0:v][1:v]{t.filt(opts)}[o0]')
        nb += t.compare_golden(frames, p, keys, f'{p.stem} ({opts})')
        runs += 1
    print(f'{runs} pairs, {nb} values compared')
    t.check(nb > 0, 'nothing compared')
    if what == 'all':
        t.check(sum(p.natural for p in t.pairs()) >= 6 and runs >= 10,
                f'only {runs} pairs: fixtures missing?')


# --- options ------------------------------------------------------------------
def help_sections(text):
    """ffmpeg -h filter=... -> {section ('libvmaf_hip', 'framesync'): {name: (type, default)}};
    a named value of an option (a constant) is listed under the option as NAME.VALUE."""
    out, cur, last = {}, None, None
    for line in text.splitlines():
        m = re.match(r'^(\S+) AVOptions:$', line)
        if m:
            cur = out.setdefault(m[1], {})
            continue
        if cur is None:
            continue
        m = re.match(r'^   (  )?(\w+)\s+(\S+)\s+[.A-Z]{6,}\s?(.*)$', line)
        if not m:
            continue
        if m[1]:  # a constant of the option above
            cur[f'{last}.{m[2]}'] = ('const', None)
            continue
        last = m[2]
        d = re.search(r'\(default (.*)\)$', m[4])
        cur[m[2]] = (m[3].strip('<>'), d[1] if d else None)
    return out


def libvmaf_option_table(t):
    """FFmpeg libvmaf's option table: from the vf_libvmaf.c of the FFmpeg sources (next to
    the ffmpeg under test, else the 8.1 build) when they are there, else LIBVMAF_OPTIONS."""
    for src in (os.path.join(os.path.dirname(t.ffmpeg), 'src'),
                os.path.join(t.source, 'build', 'ffmpeg-8.1', 'src')):
        path = os.path.join(src, 'libavfilter', 'vf_libvmaf.c')
        if not os.path.exists(path):
            continue
        text = open(path).read()
        table = re.search(r'static const AVOption libvmaf_options\[\] = \{(.*?)\n\};', text, re.S)
        if not table:
            raise Fail(f'no libvmaf_options table in {path}')
        opts = {}
        for m in re.finditer(r'\{\s*"(\w+)",\s*"[^"]*",\s*OFFSET\(\w+\),\s*AV_OPT_TYPE_(\w+),\s*'
                             r'\{\s*\.(str|i64)\s*=\s*([^}]*?)\s*\}', table[1]):
            name, typ, kind, default = m.groups()
            typ = {'STRING': 'string', 'INT': 'int', 'BOOL': 'boolean', 'DOUBLE': 'double'}[typ]
            if kind == 'str':
                default = None if default == 'NULL' else default
            opts[name] = (typ, default)
        if len(opts) < 5:
            raise Fail(f'could not read the option table of {path}: {opts}')
        return opts, path
    return LIBVMAF_OPTIONS, 'the list in run_filter_tests.py'


def test_options(t):
    """ffmpeg -h filter=libvmaf_hip lists exactly FFmpeg libvmaf's options (names, types,
    defaults; feature's default aside: psnr and float_ssim) plus backend, device,
    queue_depth, gpu_wait and share_ref, and framesync's options as every framesync filter has them (psnr's). The
    old per-metric options are gone; metric options travel in the feature and model strings
    and reach the library; n_threads and threads set the CPU threads without changing a
    score."""
    h = t.run([t.ffmpeg, '-hide_banner', '-h', 'filter=libvmaf_hip']).stdout
    sections = help_sections(h)
    ours = {k: v for k, v in sections.get('libvmaf_hip', {}).items() if '.' not in k}
    theirs, origin = libvmaf_option_table(t)
    print(f"libvmaf's options from {origin}: {', '.join(theirs)}")
    want = dict(theirs)
    want.update(OWN_OPTIONS)
    for name, default in OWN_DEFAULTS.items():
        want[name] = (want[name][0], default)
    t.check(set(ours) == set(want),
            f'options: filter has {sorted(ours)}, expected {sorted(want)}')
    for name in sorted(set(ours) & set(want)):
        t.check(ours[name] == want[name],
                f'option {name}: filter <{ours[name][0]}> default {ours[name][1]}, '
                f'expected <{want[name][0]}> default {want[name][1]}')
    consts = sorted(k for k in sections.get('libvmaf_hip', {}) if '.' in k)
    t.check(consts == ['backend.auto', 'backend.cpu', 'backend.hip'], f'named values: {consts}')
    # framesync's options, as any framesync filter of this FFmpeg lists them.
    psnr = help_sections(t.run([t.ffmpeg, '-hide_banner', '-h', 'filter=psnr']).stdout)
    fs = sections.get('framesync')
    t.check(fs and fs == psnr.get('framesync'),
            f'framesync options: {fs}, psnr has {psnr.get("framesync")}')
    t.check(fs and {'eof_action', 'shortest', 'repeatlast'} <= set(fs),
            f'framesync options missing: {fs}')
    # framesync's defaults, as in FFmpeg's libvmaf (shortest false): the README's option
    # table says the same.
    t.check(fs and fs.get('shortest') == ('boolean', 'false'), f'shortest: {fs and fs.get("shortest")}')
    readme = open(os.path.join(t.source, 'README.md')).read()
    m = re.search(r'^\| `shortest` \| `([^`]*)` \|', readme, re.M)
    t.check(m and m[1] == '0', f"README.md: shortest's default is {m and m[1]}, ffmpeg -h says false")

    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    # The old per-metric filter options are rejected by FFmpeg's option parser.
    for old in ('enable_chroma=0', 'adm_enhn_gain_limit=1', 'debug=1', 'feature=psnr+adm'):
        _, r = t.score(p.input(), f'[0:v][1:v]{t.filt(old)}[o0]', expect_ok=False)
        if old.startswith('feature='):
            t.check(r.returncode != 0 and "unknown feature 'psnr+adm'" in r.stderr,
                    f'{old}: accepted or no message; stderr:\n{r.stderr[-800:]}')
        else:
            name = old.split('=')[0]
            t.check(r.returncode != 0 and re.search(rf"option '{name}' to filter 'libvmaf_hip': Option not found",
                                                    r.stderr),
                    f'old option {old}: accepted or no message; stderr:\n{r.stderr[-800:]}')

    # Metric options reach the library through the feature string, both spellings.
    for spelling in ('name=psnr:enable_chroma=false', 'psnr=enable_chroma=false'):
        (frames,), _ = t.score(p.input(), f"[0:v][1:v]{t.filt(f'feature={q(spelling)}:model=')}[o0]")
        t.check(all(set(f['tags']) == {'psnr_y'} for f in frames),
                f'{spelling}: expected only psnr_y, got {sorted(frames[0]["tags"])}')
    (frames,), _ = t.score(p.input(), f"[0:v][1:v]{t.filt('feature=' + q('name=psnr:enable_mse=true') + ':model=')}[o0]")
    t.check(all('mse_y' in f['tags'] for f in frames), 'enable_mse=true: no mse_y')
    # An option with a non-default value that is part of libvmaf's name renames the score.
    (frames,), _ = t.score(p.input(),
                           f"[0:v][1:v]{t.filt('feature=' + q('name=adm:adm_enhn_gain_limit=1.2') + ':model=')}[o0]")
    t.check(frames and 'integer_adm2_egl_1.2' in frames[0]['tags'],
            f'adm_enhn_gain_limit=1.2: {sorted(frames[0]["tags"]) if frames else None}')
    # Every library option, set to its default in the feature string, is accepted and
    # changes nothing (names and values equal the run without options).
    lib = [line.split('\t') for line in t.run([t.probe, 'options']).stdout.splitlines()]
    t.check(len(lib) >= 20, f'only {len(lib)} library options')
    small = t.pair('minsize_admclean_37x33_yuv420p__ref_vs_noise20')
    for feature in sorted({row[0] for row in lib}):
        opts = ':'.join(f'{row[1]}={row[3]}' for row in lib if row[0] == feature and row[3] != '')
        # The 37x33 pair, or the 576x324 one for an extractor that refuses frames that small
        # (cambi: 216 pixels).
        pair = small
        (plain,), r = t.score(pair.input(), f"[0:v][1:v]{t.filt(f'feature=name={feature}:model=')}[o0]",
                              expect_ok=False)
        if r.returncode != 0 and 'too small' in r.stderr:
            pair = p
            (plain,), _ = t.score(pair.input(), f"[0:v][1:v]{t.filt(f'feature=name={feature}:model=')}[o0]")
        spec = q(f"name={feature}:{opts}")
        (given,), r = t.score(pair.input(), f"[0:v][1:v]{t.filt(f'feature={spec}:model=')}[o0]",
                              expect_ok=False)
        t.check(r.returncode == 0 and [f['tags'] for f in given] == [f['tags'] for f in plain] and plain[0]['tags'],
                f'{feature} with every option at its default ({opts}): differs or fails;\n{r.stderr[-800:]}')
    # Model options: name= renames the score.
    (frames,), _ = t.score(p.input(), f"[0:v][1:v]{t.filt('feature=:model=' + q('version=vmaf_v0.6.1:name=q'))}[o0]")
    t.check(frames and 'q' in frames[0]['tags'] and 'vmaf' not in frames[0]['tags'] and
            frames[0]['tags']['q'] == '%.6f' % p.golden[0]['vmaf'],
            f'model name=q: {frames[0]["tags"] if frames else None}')
    # n_threads (libvmaf's) and threads (FFmpeg's generic option) set the CPU threads.
    base = None
    for opt in ('n_threads=1', 'n_threads=3', 'threads=2'):
        (frames,), _ = t.score(p.input(), f'[0:v][1:v]{t.filt()}:{opt}[o0]')
        tags = [f['tags'] for f in frames]
        base = base or tags
        t.check(tags == base and len(tags[0]) == 19, f'{opt}: scores differ from n_threads=1')
    _, r = t.score(p.input(), f'[0:v][1:v]{t.filt("n_threads=5000")}[o0]', expect_ok=False)
    t.check(r.returncode != 0 and 'n_threads' in r.stderr and '5000' in r.stderr,
            f'n_threads=5000 accepted or no message; stderr:\n{r.stderr[-800:]}')
    print(f'{len(ours)} options and {len(fs or {})} framesync options checked')


# --- metadata, ffprobe ---------------------------------------------------------
def test_metadata(t):
    """The default run (libvmaf's default model plus psnr and float_ssim) tags every frame
    with every score, vmaf included, as libvmaf prints it; metadata=print to stdout;
    metadata=select on our numeric values; at the end one "VMAF score" line (the pooled
    mean; pool=max: the maximum) and one "<name> mean" line per score."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    r = t.run(t.ffmpeg_cmd(*p.input(), '-lavfi',
                           f'[0:v][1:v]{t.filt()},metadata=print:file=-', '-f', 'null', '-'))
    printed = parse_print(r.stdout)
    frames = [{'n': n, 'tags': printed[n]} for n in sorted(printed)]
    t.compare_golden(frames, p, p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES), 'default run')
    t.check(vmaf_score_lines(r.stderr) == ['%f' % pool([g['vmaf'] for g in p.golden], 'mean')],
            f'VMAF score lines {vmaf_score_lines(r.stderr)}, expected the mean '
            f'{pool([g["vmaf"] for g in p.golden], "mean"):f}')
    for name in sorted(printed[0]):
        m = re.search(rf'\] {re.escape(name)} mean: (-?\d+\.\d{{6}})$', r.stderr, re.M)
        want = pool([g[name] for g in p.golden], 'mean')
        t.check(m and abs(float(m[1]) - want) <= 1e-6 * max(1, abs(want)),
                f'{name} mean line: {m and m[1]}, expected {want:.6f}')
    # pool=max (which FFmpeg's libvmaf lacks: it pools max as mean).
    r = t.run(t.ffmpeg_cmd(*p.input(), '-lavfi', f'[0:v][1:v]{t.filt("pool=max")}', '-f', 'null', '-'))
    t.check(vmaf_score_lines(r.stderr) == ['%f' % max(g['vmaf'] for g in p.golden)],
            f'pool=max: VMAF score lines {vmaf_score_lines(r.stderr)}')
    threshold = 29.6
    want = sum(1 for g in p.golden if g['psnr_y'] > threshold)
    (frames,), _ = t.score(p.input(), f'[0:v][1:v]{t.filt()},metadata=mode=select:'
                           f'key={PREFIX}psnr_y:value={threshold}:function=greater[o0]')
    t.check(len(frames) == want, f'metadata select psnr_y>{threshold}: {len(frames)} frames, expected {want}')
    t.check(0 < want < p.dis.frames, 'select threshold does not split the clip')
    threshold = 68
    want = sum(1 for g in p.golden if g['vmaf'] < threshold)
    (frames,), _ = t.score(p.input(), f'[0:v][1:v]{t.filt()},metadata=mode=select:'
                           f'key={PREFIX}vmaf:value={threshold}:function=less[o0]')
    t.check(len(frames) == want and 0 < want < p.dis.frames,
            f'metadata select vmaf<{threshold}: {len(frames)} frames, expected {want}')


def test_ffprobe(t):
    """ffprobe -f lavfi with movie= sources reads every score, vmaf included, as frame tags;
    ffmpeg with the same graph (no input file) and frames in flight outputs every frame."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    if not os.access(t.ffprobe, os.X_OK):
        raise Skip(f'no ffprobe next to {t.ffmpeg}')
    y4m = {}
    for fx in (p.dis, p.ref):
        y4m[fx.tag] = t.tmpfile(f'{fx.tag}.y4m')
        t.run(t.ffmpeg_cmd(*fx.input(), '-c:v', 'rawvideo', '-f', 'yuv4mpegpipe', y4m[fx.tag]))
    graph = f'movie={y4m[p.dis.tag]}[m];movie={y4m[p.ref.tag]}[r];[m][r]{t.filt()}[out0]'
    r = t.run([t.ffprobe, '-v', 'error', '-f', 'lavfi', graph,
               '-show_entries', 'frame=pts:frame_tags', '-of', 'json'], timeout=120)
    frames = [{'n': n, 'tags': {k[len(PREFIX):]: v for k, v in fr.get('tags', {}).items()
                                if k.startswith(PREFIX)}}
              for n, fr in enumerate(json.loads(r.stdout)['frames'])]
    t.compare_golden(frames, p, p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES), 'ffprobe')
    # The same graph in ffmpeg, sources inside the graph and no input file, with frames in
    # flight: a filter that takes a frame pair without sending a frame on must still ask
    # for more (FFmpeg 7.1 aborts or hangs on a stalled graph).
    (frames,), r = t.score([], graph.replace('[out0]', '[o0]'), timeout=120,
                           env={'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '-1'})
    t.compare_golden(frames, p, p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES), 'sources in the graph')


# --- drop-in ----------------------------------------------------------------------
def with_golden_header(log, golden):
    """The lines that name the writer (libvmaf's version, fps) taken from the golden."""
    out = []
    gl = golden.splitlines()
    for i, a in enumerate(log.splitlines()):
        header = (a.find('"version": ') == 2 or a.find('"fps": ') == 2 or
                  a.startswith('<VMAF version=') or a.startswith('  <fyi fps='))
        out.append(gl[i] if header and i < len(gl) else a)
    return '\n'.join(out) + '\n'


def dropin_run(t, p, filt, log=None, expect_ok=True):
    """ffmpeg -i DIS -i REF -lavfi FILT -f null -, as users run FFmpeg's libvmaf; returns
    (result, log file text or None)."""
    if log and os.path.exists(log):
        os.remove(log)
    r = t.run(t.ffmpeg_cmd(*p.input(), '-lavfi', filt, '-f', 'null', '-'), expect_ok=expect_ok)
    text = open(log).read() if log and os.path.exists(log) else None
    return r, text


def json_log(text):
    d = json.loads(text)
    frames = {fr['frameNum']: fr['metrics'] for fr in d['frames']}
    return frames, d['pooled_metrics']


def test_dropin(t):
    """FFmpeg libvmaf command lines with only the filter name changed: the same log files
    and "VMAF score" lines as libvmaf. feature= (empty) gives libvmaf's default output,
    byte for byte (the version and fps lines aside) in xml (the default), json, csv and sub;
    several models with psnr and float_ssim in the spellings of FFmpeg's documentation (as
    the shell passes them), of ab-av1 and of ffmpeg-quality-metrics; n_subsample=3."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    extra = os.path.join(t.fixtures, 'golden', 'extra', p.stem)
    gpu = BACKEND != 'cpu' or t.gpu_count() > 0  # backend=auto, as users run it
    vmafs = [g['vmaf'] for g in p.golden]

    # libvmaf's default run: FFmpeg's basic example (XML by default), then each log_fmt.
    for fmt in ('xml', 'json', 'csv', 'sub'):
        log = t.tmpfile(f'default.{fmt}')
        opts = f'log_path={log}' if fmt == 'xml' else f'log_fmt={fmt}:log_path={log}'
        r, text = dropin_run(t, p, f'libvmaf_hip=feature=:{opts}', log)
        golden = open(f'{extra}.default.{fmt}').read()
        if t.check(text is not None, f'default {fmt}: no log file'):
            t.check(with_golden_header(text, golden) == golden,
                    f'default {fmt}: the log differs from libvmaf\'s ({log} vs {extra}.default.{fmt})')
        t.check(vmaf_score_lines(r.stderr) == ['%f' % pool(vmafs, 'mean')],
                f'default {fmt}: VMAF score lines {vmaf_score_lines(r.stderr)}, '
                f'expected {pool(vmafs, "mean"):f}')

    # Several models: the .models golden is libvmaf's run of vmaf, vmaf_4k and vmaf_neg with
    # --feature psnr --feature float_ssim.
    models_golden = load_json(p.base + '.models.fullprec.json')
    models_text = open(p.base + '.models.json').read()
    gframes = [fr['metrics'] for fr in models_golden['frames']]
    neg = {k for k in gframes[0] if k == 'vmaf_neg' or k.endswith('_egl_1')}
    log = t.tmpfile('models.json')
    # The brief's command line as the shell passes it from double quotes ("\\:" -> "\:").
    filt = (f"[0:v][1:v]libvmaf_hip=log_fmt=json:log_path={log}:feature='name=psnr|name=float_ssim':"
            "model='version=vmaf_v0.6.1\\:name=vmaf|version=vmaf_4k_v0.6.1\\:name=vmaf_4k':"
            "n_threads=4:pool=harmonic_mean")
    r, text = dropin_run(t, p, filt, log)
    if t.check(text is not None, 'two models: no log'):
        frames, pooled = json_log(text)
        gold6, gpooled6 = json_log(models_text)
        t.check(sorted(frames) == list(range(p.dis.frames)), f'two models: frames {sorted(frames)}')
        for n, fr in frames.items():
            want = {k: v for k, v in gold6[n].items() if k not in neg}
            t.check(set(fr) == set(want), f'two models: frame {n}: {sorted(set(fr) ^ set(want))}')
            for k in set(fr) & set(want):
                t.check(fr[k] == want[k] or (gpu and k == 'float_ssim' and abs(fr[k] - want[k]) <= 1.5e-6),
                        f'two models: frame {n} {k}: {fr[k]}, libvmaf {want[k]}')
        t.check(set(pooled) == set(gpooled6) - neg, f'two models: pooled {sorted(pooled)}')
        for k in set(pooled) & set(gpooled6):
            if k != 'float_ssim' or not gpu:
                t.check(pooled[k] == gpooled6[k], f'two models: pooled {k}: {pooled[k]}, libvmaf {gpooled6[k]}')
    want = ['%f' % models_golden['pooled_metrics'][m]['harmonic_mean'] for m in ('vmaf', 'vmaf_4k')]
    t.check(vmaf_score_lines(r.stderr) == want,
            f'two models, pool=harmonic_mean: VMAF score lines {vmaf_score_lines(r.stderr)}, expected {want}')
    t.check(abs(float(want[0]) - pool([g['vmaf'] for g in gframes], 'harmonic_mean')) < 1e-5,
            'the golden\'s pooled harmonic mean is not the harmonic mean of its frames')

    # FFmpeg's documentation: -lavfi libvmaf='model=version=vmaf_v0.6.1\\:name=vmaf|...' in
    # shell quotes (the filter gets "\\:"), unlabelled inputs; here all three models of the
    # golden and its features: the log equals libvmaf's byte for byte.
    # As the shell leaves it: the quotes gone, both backslashes there.
    filt = ('libvmaf_hip=model=version=vmaf_v0.6.1\\\\:name=vmaf|version=vmaf_4k_v0.6.1\\\\:name=vmaf_4k|'
            'version=vmaf_v0.6.1neg\\\\:name=vmaf_neg:feature=name=psnr|name=float_ssim:'
            f'log_fmt=json:log_path={log}:pool=min')
    r, text = dropin_run(t, p, filt, log)
    if t.check(text is not None, 'three models: no log') and not gpu:
        t.check(with_golden_header(text, models_text) == models_text,
                f'three models: the log differs from libvmaf\'s ({log} vs {p.base}.models.json)')
    want = ['%f' % models_golden['pooled_metrics'][m]['min'] for m in ('vmaf', 'vmaf_4k', 'vmaf_neg')]
    t.check(vmaf_score_lines(r.stderr) == want,
            f'three models, pool=min: VMAF score lines {vmaf_score_lines(r.stderr)}, expected {want}')

    # ab-av1: framesync options first, the log on stdout, the score line on stderr.
    filt = ('[0:v]setpts=PTS-STARTPTS[dis];[1:v]setpts=PTS-STARTPTS[ref];'
            '[dis][ref]libvmaf_hip=shortest=true:ts_sync_mode=nearest:n_threads=2:'
            'model=version=vmaf_v0.6.1:pool=harmonic_mean:log_fmt=json:log_path=/dev/stdout')
    r, _ = dropin_run(t, p, filt)
    try:
        frames, pooled = json_log(r.stdout)
        t.check([frames[n]['vmaf'] for n in sorted(frames)] == [float('%.6f' % v) for v in vmafs],
                'ab-av1 style: vmaf per frame differs')
    except (ValueError, KeyError) as e:
        t.fail(f'ab-av1 style: no JSON log on stdout ({e}): {r.stdout[:300]!r}')
    t.check(vmaf_score_lines(r.stderr) == ['%f' % p.golden_json['pooled_metrics']['vmaf']['harmonic_mean']],
            f'ab-av1 style: VMAF score lines {vmaf_score_lines(r.stderr)}')

    # ffmpeg-quality-metrics: the whole option string quoted, the model file by path with
    # its parameters joined by "\:", features with ':' escaped, joined by '|'.
    model = os.path.join(t.source, 'models', 'vmaf_v0.6.1.json')
    log = t.tmpfile('fqm.json')
    filt = (f"[0:v][1:v]libvmaf_hip='model=path={model}\\:name=vmaf:log_path={log}:log_fmt=json:"
            f"n_threads=0:n_subsample=1:feature=name=psnr|name=float_ssim\\:enable_db=false'")
    r, text = dropin_run(t, p, filt, log)
    if t.check(text is not None, 'ffmpeg-quality-metrics style: no log'):
        frames, _ = json_log(text)
        keys = p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES)
        got = [{'n': n, 'tags': {k: '%.6f' % v for k, v in frames[n].items()}} for n in sorted(frames)]
        t.compare_golden(got, p, keys, 'ffmpeg-quality-metrics style', gpu=gpu)

    # n_subsample=3: frames 0, 3, 6, 9 scored (motion still reads every frame), the others
    # pass through without metadata; the log and the pooled values are libvmaf's.
    sub = load_json(f'{extra}.subsample3.fullprec.json')
    log = t.tmpfile('subsample.json')
    (frames,), r = t.score(p.input(), f'[0:v][1:v]libvmaf_hip=n_subsample=3:log_fmt=json:log_path={log}[o0]')
    scored = [f['n'] for f in frames if f['tags']]
    t.check(len(frames) == p.dis.frames and scored == [fr['frameNum'] for fr in sub['frames']] == [0, 3, 6, 9],
            f'n_subsample=3: {len(frames)} frames, scored {scored}')
    golden = {fr['frameNum']: fr['metrics'] for fr in sub['frames']}
    for f in frames:
        if f['n'] in golden:
            keys = set(golden[f['n']])
            t.check(set(f['tags']) == keys, f'n_subsample=3: frame {f["n"]}: {sorted(set(f["tags"]) ^ keys)}')
            for k in keys & set(f['tags']):
                t.check(t.same_value(k, f['tags'][k], golden[f['n']][k], gpu),
                        f'n_subsample=3: frame {f["n"]} {k}={f["tags"][k]}, libvmaf {golden[f["n"]][k]:.6f}')
    if t.check(os.path.exists(log), 'n_subsample=3: no log'):
        lframes, pooled = json_log(open(log).read())
        t.check(sorted(lframes) == [0, 3, 6, 9], f'n_subsample=3: log frames {sorted(lframes)}')
        for k, st in sub['pooled_metrics'].items():
            for s, v in st.items():
                got = pooled.get(k, {}).get(s)
                t.check(got is not None and (got == round(v, 6) or (gpu and k == 'float_ssim' and abs(got - v) < 2e-6)),
                        f'n_subsample=3: pooled {k} {s}: {got}, libvmaf {v:.6f}')
    t.check(vmaf_score_lines(r.stderr) == ['%f' % sub['pooled_metrics']['vmaf']['mean']],
            f'n_subsample=3: VMAF score lines {vmaf_score_lines(r.stderr)}')


def test_models(t):
    """libvmaf's .modelopts run through the filter (feature= empty): eight models in one
    model string, built-in by version and libvmaf JSON files by path (test models with
    their own score transform), with name, enable_transform, disable_clip and
    FEATURE.OPTION overloads. Every frame's metadata equals the golden, the JSON log equals
    libvmaf's byte for byte (the version and fps lines aside), one "VMAF score" line per
    model, in order."""
    p = t.pair('natural4_176x144_yuv422p__ref_vs_x264crf34')
    gjson = load_json(p.base + '.modelopts.fullprec.json')
    golden = [fr['metrics'] for fr in gjson['frames']]
    models = os.path.join(t.fixtures, 'models')
    entries = [
        ('version=vmaf_v0.6.1:enable_transform=true', 'vmaf'),
        ('version=vmaf_v0.6.1:name=vmaf_noclip:disable_clip=true', 'vmaf_noclip'),
        ('version=vmaf_v0.6.1:name=vmaf_t_noclip:enable_transform=true:disable_clip=true', 'vmaf_t_noclip'),
        ('version=vmaf_4k_v0.6.1neg:name=vmaf_4k_neg', 'vmaf_4k_neg'),
        ('version=vmaf_v0.6.1:name=vmaf_ov:adm.adm_enhn_gain_limit=1.2:vif.vif_enhn_gain_limit=1.1', 'vmaf_ov'),
        ('version=vmaf_v0.6.1neg:name=vmaf_neg_ov:adm.adm_enhn_gain_limit=1.5', 'vmaf_neg_ov'),
        (f'path={models}/vmaf_v0.6.1_knots_lte.json:name=vmaf_knots_lte', 'vmaf_knots_lte'),
        (f'path={models}/vmaf_v0.6.1_poly_knots_gte.json:name=vmaf_poly_knots_gte:disable_clip=true',
         'vmaf_poly_knots_gte'),
    ]
    log = t.tmpfile('modelopts.json')
    spec = q('|'.join(m for m, _ in entries))
    (frames,), r = t.score(p.input(), f"[0:v][1:v]{t.filt(f'feature=:model={spec}:log_fmt=json:log_path={log}')}[o0]")
    nb = t.compare_golden(frames, p, set(golden[0]), 'modelopts', golden=golden)
    t.check(nb == len(golden) * len(golden[0]) and len(golden[0]) > 40, f'{nb} values compared')
    want = ['%f' % pool([g[name] for g in golden], 'mean') for _, name in entries]
    t.check(vmaf_score_lines(r.stderr) == want, f'VMAF score lines {vmaf_score_lines(r.stderr)}, expected {want}')
    if BACKEND == 'cpu' and t.check(os.path.exists(log), 'no log'):
        text, gtext = open(log).read(), open(p.base + '.modelopts.json').read()
        t.check(with_golden_header(text, gtext) == gtext,
                f'the log differs from libvmaf\'s ({log} vs {p.base}.modelopts.json)')


def test_vmaf_v1(t):
    """The VMAF v1.0.16 built-in models. Two in one model string (the 3H model and its HFR
    variant, which shares CAMBI, SpEED and ADM and adds its own motion): every frame holds
    both goldens' scores, each equal to libvmaf's printed %.6f, and one "VMAF score" line per
    model; then each of the other built-ins alone, against its golden. The README's 10-bit command line (8-bit inputs converted by format=): the scores
    equal the library's on the same frames converted by this ffmpeg. Sizes libvmaf 3.2
    crashes on or refuses stop with the smallest accepted size."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    g3 = [fr['metrics'] for fr in load_json(p.base + '.vmaf_v1.0.16_3d0h.fullprec.json')['frames']]
    gh = [{('vmaf_hfr' if k == 'vmaf' else k): v for k, v in fr['metrics'].items()}
          for fr in load_json(p.base + '.vmaf_v1.0.16_hfr_3d0h.fullprec.json')['frames']]
    golden = [{**a, **b} for a, b in zip(g3, gh)]
    spec = q('version=vmaf_v1.0.16_3d0h|version=vmaf_v1.0.16_hfr_3d0h:name=vmaf_hfr')
    (frames,), r = t.score(p.input(), f"[0:v][1:v]{t.filt(f'feature=:model={spec}')}[o0]")
    nb = t.compare_golden(frames, p, set(golden[0]), 'v1 models', golden=golden)
    t.check(nb == 10 * 19, f'v1 models: {nb} values compared, expected 10 frames x 19 scores')
    want = ['%f' % pool([g[m] for g in golden], 'mean') for m in ('vmaf', 'vmaf_hfr')]
    t.check(vmaf_score_lines(r.stderr) == want, f'v1 models: VMAF score lines {vmaf_score_lines(r.stderr)}, '
                                                f'expected {want}')

    # Every v1 built-in alone, by the name libvmaf gives it: libvmaf's values (hfr_3d0h above).
    for variant in ('3d0h', '5d0h', '1d5h_2160', '3d0h_2160', 'hfr_5d0h', 'hfr_1d5h_2160', 'hfr_3d0h_2160'):
        model = f'vmaf_v1.0.16_{variant}'
        golden1 = [fr['metrics'] for fr in load_json(f'{p.base}.{model}.fullprec.json')['frames']]
        (frames,), _ = t.score(p.input(), f"[0:v][1:v]{t.filt(f'feature=:model=version={model}')}[o0]")
        nb = t.compare_golden(frames, p, set(golden1[0]), model, golden=golden1)
        t.check(nb == 10 * 15, f'{model}: {nb} values compared, expected 10 frames x 15 scores')

    # 10-bit measurement from 8-bit inputs (README)
    conv = []
    for fx in (p.dis, p.ref):
        path = t.tmpfile(f'{fx.tag}_10bit.yuv')
        t.run(t.ffmpeg_cmd(*fx.input(), '-pix_fmt', 'yuv420p10le', '-f', 'rawvideo', path))
        conv.append(path)
    graph = ('[0:v]format=yuv420p10le[dis];[1:v]format=yuv420p10le[ref];'
             f"[dis][ref]{t.filt('feature=:model=version=vmaf_v1.0.16_3d0h')}[o0]")
    (frames,), _ = t.score(p.input(), graph)
    want = t.probe_scores(p.dis.w, p.dis.h, 'yuv420p10le', conv[0], conv[1], '', 'version=vmaf_v1.0.16_3d0h')
    t.check(len(frames) == len(want) == p.dis.frames, f'10 bits: {len(frames)} frames, library {len(want)}')
    for fr, w in zip(frames, want):
        t.check(fr['tags'] == w, f'10 bits, frame {fr["n"]}: filter {fr["tags"]}, library {w}')
    t.check(frames and frames[0]['tags'].get('vmaf') != '%.6f' % g3[0]['vmaf'],
            '10 bits: the score equals the 8-bit one; were the frames converted?')

    for stem, model, pattern in (
            ('natural2_352x288_yuv420p10le__ref_vs_x265crf32', 'vmaf_v1.0.16_3d0h_2160',
             r'speed_chroma: 352x288 is too small: .*the smallest accepted frame is 318 wide and 318 high'),
            ('natural4_176x144_yuv422p__ref_vs_x264crf34', 'vmaf_v1.0.16_3d0h',
             r'cambi: encode size 176x144 is too small: width or height must be at least 216')):
        error_case(t, t.pair(stem), f'feature=:model=version={model}', pattern, f'{model} on {stem}')


def test_float_ctc(t):
    """libvmaf's common-test-conditions set (float_ms_ssim, psnr_hvs, ciede) and, on the CPU
    backend (no GPU implementation yet), its float family with the four float models, as
    FFmpeg's libvmaf takes them: every frame's metadata equals the .ctc and .float goldens."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_mpeg2q28')
    ctc = [fr['metrics'] for fr in load_json(p.base + '.ctc.fullprec.json')['frames']]
    features = q('name=float_ms_ssim|name=psnr_hvs|name=ciede')
    (frames,), _ = t.score(p.input(), f"[0:v][1:v]{t.filt(f'feature={features}:model=')}[o0]")
    nb = t.compare_golden(frames, p, set(ctc[0]), 'ctc', golden=ctc)
    t.check(nb == 10 * 6, f'ctc: {nb} values compared, expected 10 frames x 6 scores')
    if BACKEND != 'cpu':
        return
    golden = [fr['metrics'] for fr in load_json(t.golden_file(p.stem + '.float.fullprec.json'))['frames']]
    models = q('version=vmaf_float_v0.6.1:name=vmaf_float|version=vmaf_float_v0.6.1neg:name=vmaf_float_neg|'
               'version=vmaf_float_4k_v0.6.1:name=vmaf_float_4k|version=vmaf_float_b_v0.6.3:name=vmaf_float_b')
    features = q('name=float_psnr|name=float_ansnr|name=float_moment')
    (frames,), _ = t.score(p.input(), f"[0:v][1:v]{t.filt(f'feature={features}:model={models}')}[o0]")
    nb = t.compare_golden(frames, p, set(golden[0]), 'float', golden=golden)
    t.check(nb == 10 * 60, f'float: {nb} values compared, expected 10 frames x 60 scores')


# --- streams ------------------------------------------------------------------------
def fixture_copy(fx, path, frames):
    c = Fixture.__new__(Fixture)
    c.__dict__.update(fx.__dict__)
    c.path, c.frames = path, frames
    return c


def truncated(t, fx, frames):
    """The first `frames` frames of a fixture."""
    path = t.tmpfile(f'{fx.tag}_{frames}.yuv')
    with open(fx.path, 'rb') as f, open(path, 'wb') as o:
        o.write(f.read(frame_size(fx.w, fx.h, fx.pix_fmt) * frames))
    return fixture_copy(fx, path, frames)


def main_frames(t, fx):
    (base,), _ = t.score(fx.input(), '[0:v]null[o0]')
    return base


def main_pts(t, fx):
    return [f['pts'] for f in main_frames(t, fx)]


def test_eof(t):
    """End of stream with motion (every VMAF model): the last frame leaves with complete
    scores (integer_motion2 of the last frame = its SAD score, as libvmaf at flush); the
    default shortest=1 stops at the shorter input, whichever it is, with the library's
    scores of the frames scored; the default is framesync's, as in FFmpeg's libvmaf
    (shortest=0, repeatlast=1); shortest=0 and repeatlast=0 lose and duplicate no main
    frame (count and timestamps are the main input's)."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    keys = p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES)
    (frames,), _ = t.score(p.input(), f'[0:v][1:v]{t.filt()}[o0]')
    t.compare_golden(frames, p, keys, 'whole clip')
    last = frames[-1]['tags'] if frames else {}
    t.check(last.get('integer_motion2') is not None and
            last.get('integer_motion2') == last.get('VMAF_integer_feature_motion_sad_score'),
            f'last frame: motion2 {last.get("integer_motion2")}, SAD {last.get("VMAF_integer_feature_motion_sad_score")}')

    ref5, dis5 = truncated(t, p.ref, 5), truncated(t, p.dis, 5)
    want = t.probe_scores(p.ref.w, p.ref.h, p.ref.pix_fmt, dis5.path, ref5.path,
                          'psnr|float_ssim', DEFAULT_MODEL)
    t.check(len(want) == 5 and want[4]['integer_motion2'] == want[4]['VMAF_integer_feature_motion_sad_score'],
            'library: motion2 of the last of 5 frames is not its SAD')
    for what, inputs in (('reference shorter', p.dis.input() + ref5.input()),
                         ('main shorter', dis5.input() + p.ref.input())):
        (frames,), _ = t.score(inputs, f'[0:v][1:v]{t.filt("shortest=1")}[o0]')
        t.check([f['pts'] for f in frames] == [0, 1, 2, 3, 4], f'{what}: pts {[f["pts"] for f in frames]}')
        t.check([f['tags'] for f in frames] == want, f'{what}: scores differ from the library\'s on 5 frames')
        t.check(frames and frames[3]['tags'].get('integer_motion2') == '%.6f' % p.golden[3]['integer_motion2'],
                f'{what}: frame 3 motion2 differs from the whole clip\'s')

    pts10, pts5 = main_pts(t, p.dis), main_pts(t, dis5)
    # shortest=0 (repeatlast=1): main frames after the end of the reference are scored
    # against its last frame.
    (frames,), _ = t.score(p.dis.input() + ref5.input(), f'[0:v][1:v]{t.filt("shortest=0")}[o0]')
    (default,), _ = t.score(p.dis.input() + ref5.input(), f'[0:v][1:v]{t.filt()}[o0]')
    t.check(default == frames, 'the default differs from shortest=0 (framesync\'s default, libvmaf\'s)')
    t.check([f['pts'] for f in frames] == pts10 and all(len(f['tags']) == len(keys) for f in frames),
            f'shortest=0, reference shorter: pts {[f["pts"] for f in frames]}, scored '
            f'{[f["n"] for f in frames if f["tags"]]}')
    t.check(frames and [f['tags'] for f in frames[:4]] == want[:4], 'shortest=0: first frames\' scores differ')
    # A shorter main input with shortest=0: framesync extends the main input's last frame to
    # the end of the reference, in every framesync filter (FFmpeg's psnr here); with
    # eof_action=endall the output ends with the main input.
    for opts, n in (('shortest=0', 10), ('shortest=0:eof_action=endall', 5)):
        (frames,), _ = t.score(dis5.input() + p.ref.input(), f'[0:v][1:v]{t.filt(opts)}[o0]')
        (psnr,), _ = t.score(dis5.input() + p.ref.input(), f'[0:v][1:v]psnr={opts}[o0]')
        t.check([(f['pts'], f['crc']) for f in frames] == [(f['pts'], f['crc']) for f in psnr] and
                len(frames) == n, f'{opts}, main shorter: pts {[f["pts"] for f in frames]}, '
                f'psnr gives {[f["pts"] for f in psnr]}')
        t.check(all(len(f['tags']) == len(keys) for f in frames), f'{opts}, main shorter: unscored frames')
        t.check([f['tags'] for f in frames[:4]] == want[:4] and
                [f['crc'] for f in frames[:5]] == [f['crc'] for f in main_frames(t, dis5)],
                f'{opts}, main shorter: the main frames differ')
    # repeatlast=0: main frames after the end of the reference pass through unscored.
    (frames,), r = t.score(p.dis.input() + ref5.input(),
                           f'[0:v][1:v]{t.filt("shortest=0:repeatlast=0")}[o0]')
    t.check([f['pts'] for f in frames] == pts10, f'repeatlast=0: pts {[f["pts"] for f in frames]}')
    t.check([f['tags'] for f in frames] == want + [{}] * 5,
            f'repeatlast=0: scored {[f["n"] for f in frames if f["tags"]]}, expected the library\'s 0..4')
    t.check('5 main frames had no reference frame' in r.stderr, 'repeatlast=0: no count of unscored frames')


def test_lengths(t):
    """Frames before the first reference frame and pairs with different timestamps are
    counted and reported; the unpaired frames pass unscored, the others are scored."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    # Reference delayed by 50 ms: main frames 0 and 1 (0, 40 ms) have none; the others pair
    # with the reference frame 10 ms or 30 ms earlier.
    graph = (f'[1:v]settb=1/1000,setpts=PTS+50/(1000*TB)[r];[0:v]settb=1/1000[d];'
             f'[d][r]{t.filt("shortest=1")}[o0]')
    (frames,), r = t.score(p.input(), graph)
    t.check(len(frames) == 10, f'delayed reference: {len(frames)} frames output, expected 10')
    t.check(not frames[0]['tags'] and not frames[1]['tags'] and all(len(f['tags']) == 19 for f in frames[2:]),
            'delayed reference: frames 0 and 1 should be unscored, the rest scored')
    t.check('2 main frames had no reference frame' in r.stderr, 'no warning about 2 unmatched frames')
    t.check('8 of 8 frame pairs were matched with different timestamps' in r.stderr,
            'no warning about 8 pairs with different timestamps')
    t.check('different lengths' not in r.stderr, 'delayed reference: a warning about lengths')
    t.check('less than a tenth of a frame' not in r.stderr, 'delayed reference: a rounding warning')

    # Timestamps rounded differently (the main input's 1 ms below the reference's exact ones,
    # as Matroska's milliseconds against MP4's ticks): framesync pairs each main frame after
    # the first with the reference frame before its own, as FFmpeg's libvmaf does; one warning
    # gives the times and suggests ts_sync_mode=nearest, which pairs them as meant.
    jitter = ("[0:v]settb=1/1000,setpts='N*40-gt(N,0)'[d];[1:v]settb=1/1000,setpts='N*40'[r];"
              '[d][r]')
    (frames,), r = t.score(p.input(), jitter + f'{t.filt("feature=name=psnr:model=")}[o0]')
    warning = ('main frame at 0.039 s is paired with the reference frame at 0 s, though the next '
               'reference frame, at 0.04 s, is less than a tenth of a frame from it')
    t.check(r.stderr.count(warning) == 1 and 'ts_sync_mode=nearest' in r.stderr,
            f'rounded timestamps: no warning; stderr:\n{r.stderr[-1500:]}')
    t.check(len(frames) >= 10 and frames[1]['tags'].get('psnr_y') != '%.6f' % p.golden[1]['psnr_y'],
            'rounded timestamps: main frame 1 was not paired with reference frame 0 (libvmaf\'s pairing)')
    (frames,), r = t.score(p.input(), jitter + f'{t.filt("feature=name=psnr:model=:ts_sync_mode=nearest")}[o0]')
    t.check('less than a tenth of a frame' not in r.stderr,
            f'ts_sync_mode=nearest: a rounding warning; stderr:\n{r.stderr[-1500:]}')
    # (The main input's last frame, 1 ms before the reference's, is repeated for it.)
    t.check([f['tags'].get('psnr_y') for f in frames[:10]] == ['%.6f' % p.golden[n]['psnr_y'] for n in range(10)],
            'ts_sync_mode=nearest: the frames were not paired with their reference frames')

    # Inputs of different lengths: a warning at the end with both counts and the input that
    # ended first; the pairs with an ended input's last frame are not timestamp mismatches.
    ref5, dis5 = truncated(t, p.ref, 5), truncated(t, p.dis, 5)
    cases = [
        ('reference shorter', p.dis.input() + ref5.input(), '',
         'The inputs have different lengths: main 10 frames, reference 5 frames; the reference '
         'input ended first and its last frame was used 5 more times, to the end of the main input'),
        ('main shorter', dis5.input() + p.ref.input(), '',
         'The inputs have different lengths: main 5 frames, reference 10 frames; the main '
         'input ended first and its last frame was used 5 more times, to the end of the reference input'),
        ('reference shorter, repeatlast=0', p.dis.input() + ref5.input(), 'repeatlast=0',
         'The inputs have different lengths: main 10 frames, reference 5 frames; the reference '
         'input ended first\n'),
        # The main input's end may or may not arrive before the output ends: both are said.
        ('reference shorter, shortest=1', p.dis.input() + ref5.input(), 'shortest=1',
         re.compile(r'The inputs have different lengths: (main at least ([6-9]|10) frames, reference 5 '
                    r'frames; the reference input ended first and the main input was not read to its '
                    r'end \(shortest=1 or eof_action=endall\)|main 10 frames, reference 5 frames; the '
                    r'reference input ended first\n)')),
    ]
    for what, inputs, opts, msg in cases:
        (frames,), r = t.score(inputs, f'[0:v][1:v]{t.filt(opts)}[o0]')
        found = msg.search(r.stderr) if isinstance(msg, re.Pattern) else msg in r.stderr
        t.check(found and r.stderr.count('different lengths') == 1,
                f'{what}: no warning {getattr(msg, "pattern", msg)!r}; stderr:\n{r.stderr[-1500:]}')
        t.check('matched with different timestamps' not in r.stderr,
                f'{what}: repeated frames reported as timestamp mismatches')
    (frames,), r = t.score(p.input(), f'[0:v][1:v]{t.filt()}[o0]')
    t.check('different lengths' not in r.stderr, 'same lengths: a warning about lengths')


def test_mismatch(t):
    """Different sizes fail at configure time, naming both inputs. Other pixel formats are
    converted by FFmpeg, as for FFmpeg's libvmaf filter (one format list for both inputs
    and the output: FFmpeg inserts a scale filter), and the filter says so: rgb24 inputs
    are scored as yuv444p, a reference in another format than the main input's is scored
    in the main input's format."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    _, r = t.score(p.input(), f'[1:v]scale=288:162[r];[0:v][r]{t.filt()}[o0]', expect_ok=False)
    t.check(r.returncode != 0, 'different sizes: exit status 0')
    t.check('reference is 288x162 yuv420p, main is 576x324 yuv420p: both inputs must have the same '
            'size' in r.stderr, f'different sizes: message missing; stderr:\n{r.stderr[-1500:]}')

    def converted(which, src, dst):
        return (f'{which} input converted from {src} to {dst} by FFmpeg (an automatic scale filter, '
                'as for the libvmaf filter)')
    keys = p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES)
    # A reference in another format: converted to the main input's; 8 -> 10 -> 8 bits gives
    # the same samples back, so libvmaf's scores (FFmpeg's chroma round trip 4:2:0 -> 4:4:4
    # -> 4:2:0 does not: scored, but not against the golden).
    for fmt in ('yuv444p', 'yuv420p10le'):
        (frames,), r = t.score(p.input(), f'[1:v]format={fmt}[r];[0:v][r]{t.filt()}[o0]')
        t.check(converted('reference', fmt, 'yuv420p') in r.stderr,
                f'reference {fmt}: no message about the conversion; stderr:\n{r.stderr[-1500:]}')
        if fmt == 'yuv420p10le':
            t.compare_golden(frames, p, keys, f'reference {fmt}')
        else:
            t.check(len(frames) == 10 and all(set(f['tags']) == keys for f in frames),
                    f'reference {fmt}: not every frame scored')
    # rgb24 inputs (libvmaf's filter takes them the same way): scored as yuv444p.
    (frames,), r = t.score(p.input(), f'[0:v]format=rgb24[d];[1:v]format=rgb24[r];[d][r]{t.filt()}[o0]')
    t.check(converted('main', 'rgb24', 'yuv444p') in r.stderr and
            converted('reference', 'rgb24', 'yuv444p') in r.stderr,
            f'rgb24: no message about the conversions; stderr:\n{r.stderr[-1500:]}')
    t.check(len(frames) == 10 and all(set(f['tags']) == keys for f in frames) and
            vmaf_score_lines(r.stderr), f'rgb24: not every frame scored; stderr:\n{r.stderr[-800:]}')
    (frames,), r = t.score(p.input(), f'[0:v][1:v]{t.filt()}[o0]')
    t.check('converted' not in r.stderr, 'a conversion reported where there is none')


def scaled(t, fx, factor, pix_fmt):
    """The fixture with every sample multiplied by factor, as pix_fmt (16-bit LE samples)."""
    import array
    a = array.array('H')
    with open(fx.path, 'rb') as f:
        a.frombytes(f.read())
    if sys.byteorder != 'little':
        a.byteswap()
    a = array.array('H', (v * factor for v in a))
    if sys.byteorder != 'little':
        a.byteswap()
    path = t.tmpfile(f'{fx.content}_{fx.tag}_{pix_fmt}.yuv')
    with open(path, 'wb') as o:
        o.write(a.tobytes())
    c = fixture_copy(fx, path, fx.frames)
    c.pix_fmt = pix_fmt
    return c


def test_bitdepth(t):
    """12-bit (the 10-bit fixture scaled by 4; every extractor and the default model) and
    16-bit (by 64; psnr, float_ssim, motion) input: the filter's metadata equals the
    library's scores on the same data (vmafhip_probe, through the public API)."""
    p = t.pair('natural2_352x288_yuv420p10le__ref_vs_x265crf32')
    for pix_fmt, factor, feats, model in (
            ('yuv420p12le', 4, ALL_FEATURES, DEFAULT_MODEL),
            ('yuv420p16le', 64, 'name=psnr|name=float_ssim|name=motion', '')):
        dis, ref = scaled(t, p.dis, factor, pix_fmt), scaled(t, p.ref, factor, pix_fmt)
        (frames,), _ = t.score(dis.input() + ref.input(),
                               f"[0:v][1:v]{t.filt(f'feature={feats}:model={model}')}[o0]")
        want = t.probe_scores(dis.w, dis.h, pix_fmt, dis.path, ref.path, feats, model)
        t.check(len(frames) == len(want) == p.dis.frames,
                f'{pix_fmt}: {len(frames)} frames, library {len(want)}')
        for fr, w in zip(frames, want):
            t.check(fr['tags'] == w, f'{pix_fmt} frame {fr["n"]}: filter {fr["tags"]}, library {w}')
        t.check(frames and len(frames[0]['tags']) == (19 if model else 7),
                f'{pix_fmt}: {len(frames[0]["tags"]) if frames else 0} scores')
        t.check(frames and frames[0]['tags'].get('psnr_y') != '%.6f' % p.golden[0]['psnr_y'],
                f'{pix_fmt}: psnr_y equals the 10-bit value; was the input read as 10-bit?')


def test_range_error(t):
    """A 10-bit sample above 1023 in frame N. Without motion, that frame passes unscored,
    the others are scored and the count is reported. With a VMAF model (motion reads the
    next frame) the stream fails (non-zero exit) with the library's and the filter's
    message, mid-stream (N=2) as in the last frame (N=5): the frames output are the first
    ones, in order, none twice, through frame N at least; those before N-1 carry the
    golden's scores, the later ones none; no "VMAF score" line. Frames in flight (the shim)
    change no output frame (where frames are scored while the filter goes on, on a GPU or on
    the CPU's frame workers, the break is seen when the bad frame's results come back, so one
    more frame may pass before it; on the CPU with queue_depth=1, run too, the break comes at
    the same frame every run, and the limit below does not apply without the shim); a frame
    whose scores were still in flight when the stream broke
    leaves without them (the library completes no frame once the stream is broken). One
    limit: when the stream breaks after both inputs have ended, with frames in flight, the
    frames reach ffmpeg's output only if no filter stands between libvmaf_hip and it (ffmpeg
    drops frames still in the graph at an error); checked here with the filter output
    mapped directly. No leak or memory error on the error path (valgrind, CPU)."""
    p = t.pair('natural2_352x288_yuv420p10le__ref_vs_x265crf32')
    size = frame_size(p.dis.w, p.dis.h, p.dis.pix_fmt)
    pts = main_pts(t, p.dis)
    keys = p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES)
    t.check(len(pts) == 6, f'{p.stem}: {len(pts)} frames, the test expects 6')

    def bad_copy(n):
        bad = fixture_copy(p.dis, t.tmpfile(f'bad10_{n}.yuv'), p.dis.frames)
        data = bytearray(open(p.dis.path, 'rb').read())
        data[n * size + 100:n * size + 102] = b'\xff\xff'  # a luma sample of frame n
        open(bad.path, 'wb').write(data)
        return bad

    bad = bad_copy(2)
    msg = 'frame 2: sample value 65535 is above the 10-bit maximum 1023'
    (frames,), r = t.score(bad.input() + p.ref.input(), f"[0:v][1:v]{t.filt('feature=name=psnr:model=')}[o0]")
    t.check([f['pts'] for f in frames] == pts, f'no motion: pts {[f["pts"] for f in frames]}')
    t.check([bool(f['tags']) for f in frames] == [n != 2 for n in range(len(frames))],
            f'no motion: scored {[f["n"] for f in frames if f["tags"]]}, expected all but 2')
    t.check(all(f['tags'] == {k: '%.6f' % p.golden[f['n']][k] for k in KEYS['psnr']}
                for f in frames if f['n'] != 2), 'no motion: scores differ from the golden')
    t.check(msg + ': this frame is not scored' in r.stderr, f'no motion: no library message; stderr:\n{r.stderr[-1500:]}')
    t.check('1 frames had samples above the bit depth' in r.stderr,
            f'no motion: no count at the end; stderr:\n{r.stderr[-1500:]}')

    vg = valgrind(t)
    for n, depth in [(n, d) for n in (2, 5) for d in ('', 'queue_depth=1')[:2 if BACKEND == 'cpu' else 1]]:
        bad = bad_copy(n)
        msg = f'frame {n}: sample value 65535 is above the 10-bit maximum 1023'
        graph = f'[0:v][1:v]{t.filt(depth)}[o0]'
        # One frame in flight (the CPU with queue_depth=1) unless the shim holds more.
        one_in_flight = BACKEND == 'cpu' and depth == 'queue_depth=1'
        outs = []
        for env in (None, {'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '-1'}):
            in_flight = env or not one_in_flight
            (frames,), r = t.score(bad.input() + p.ref.input(), graph, expect_ok=False, env=env,
                                   wrapper=vg if (vg and n == 2 and not env and not depth) else ())
            what = f'model, bad frame {n}' + (f', {depth}' if depth else '') + (', frames in flight' if env else '')
            t.check(r.returncode not in (0, 99), f'{what}: exit status {r.returncode}')
            t.check(msg in r.stderr and 'the stream cannot be scored' in r.stderr and
                    'The stream could not be scored' in r.stderr,
                    f'{what}: no library and filter message; stderr:\n{r.stderr[-1500:]}')
            t.check(not vmaf_score_lines(r.stderr), f'{what}: VMAF score printed')
            if in_flight and n == 5:
                # Broken after the inputs ended, with frames in flight: the frames leave the
                # filter but ffmpeg drops those still in the graph (here: in the metadata
                # filter) at the error.
                frames = direct_output(t, bad.input() + p.ref.input(), graph, env)
            t.check([f['pts'] for f in frames] == pts[:len(frames)] and len(frames) > n,
                    f'{what}: output pts {[f["pts"] for f in frames]}, expected frames 0..{n} at least')
            if in_flight and n == 5:
                pass  # that run has no metadata
            elif in_flight:  # scored frames have the golden's scores; frames in flight have none
                t.compare_golden([f for f in frames[:n - 1] if f['tags']], p, keys, what,
                                 golden=[p.golden[f['n']] for f in frames[:n - 1] if f['tags']])
            else:
                t.compare_golden(frames[:n - 1], p, keys, what, golden=p.golden[:n - 1])
            t.check(not any(f.get('tags') for f in frames[n - 1:]),
                    f'{what}: frames from {n - 1} on should be unscored: {[f["n"] for f in frames if f.get("tags")]}')
            outs.append([(f['pts'], f['crc']) for f in frames])
        # With one frame in flight the break comes at the same frame every run. With more it
        # is seen when the bad frame's results come back, so ffmpeg may have passed one more
        # frame by then: every frame output must still be the same, through frame n at least.
        common = max(len(outs[0]), len(outs[1])) if one_in_flight else min(len(outs[0]), len(outs[1]))
        t.check(outs[0][:common] == outs[1][:common] and len(outs[0]) > n and len(outs[1]) > n and
                (not one_in_flight or len(outs[0]) == len(outs[1])),
                f'model, bad frame {n}{", " + depth if depth else ""}: frames in flight change the output '
                f'({len(outs[0])} and {len(outs[1])} frames)')
        print(f'bad frame {n}{" " + depth if depth else ""}: {len(outs[0])} frames output')
    if vg:
        print('valgrind on the error path: clean')


def direct_output(t, inputs, graph, env=None):
    """ffmpeg with `graph`'s output [o0] mapped straight to a framecrc (no filter after it):
    the frames that reached the output, [{'pts', 'crc'}], whatever the exit status."""
    path = t.tmpfile('direct.crc')
    if os.path.exists(path):
        os.remove(path)
    t.run(t.ffmpeg_cmd(*inputs, '-filter_complex', graph, '-map', '[o0]', '-c:v', 'rawvideo',
                       '-f', 'framecrc', path), expect_ok=False, env=env)
    out = []
    for line in (open(path).read().splitlines() if os.path.exists(path) else []):
        if not line.startswith('#'):
            fields = [x.strip() for x in line.split(',')]
            out.append({'pts': int(fields[2]), 'crc': fields[5]})
    return out


def test_adm_limits(t):
    """ADM refuses what libvmaf cannot do, with the library's message: 16-bit input (also
    through the default model) and adm_csf_mode=1."""
    p = t.pair('natural2_352x288_yuv420p10le__ref_vs_x265crf32')
    dis, ref = scaled(t, p.dis, 64, 'yuv420p16le'), scaled(t, p.ref, 64, 'yuv420p16le')
    for opts in ('feature=name=adm:model=', 'feature='):
        _, r = t.score(dis.input() + ref.input(), f'[0:v][1:v]{t.filt(opts)}[o0]', expect_ok=False)
        t.check(r.returncode != 0, f'ADM at 16 bits ({opts}): exit status 0')
        t.check(re.search(r'libvmaf_hip.*\]. *.*16', r.stderr) is not None,
                f'ADM at 16 bits ({opts}): no message naming 16 bits; stderr:\n{r.stderr[-1500:]}')
    p = t.pair('natural4_176x144_yuv422p__ref_vs_x264crf34')
    _, r = t.score(p.input(), f"[0:v][1:v]{t.filt('feature=' + q('name=adm:adm_csf_mode=1') + ':model=')}[o0]",
                   expect_ok=False)
    t.check(r.returncode != 0, 'adm_csf_mode=1: exit status 0')
    t.check(re.search(r'libvmaf_hip.*csf_mode', r.stderr) is not None,
            f'adm_csf_mode=1: no message; stderr:\n{r.stderr[-1500:]}')


def valgrind(t):
    if BACKEND != 'cpu':
        return None
    v = shutil.which('valgrind')
    if not v:
        print('valgrind not found: leak checks skipped (tools/install-deps installs it)')
        return None
    return [v, '-q', '--leak-check=full', '--errors-for-leak-kinds=definite,indirect',
            '--error-exitcode=99']


def shim_report(r):
    m = re.findall(r'inflight-shim: (\d+) (\d+)', r.stderr)
    return (int(m[-1][0]), int(m[-1][1])) if m else (0, 0)


def test_frames_limit(t):
    """-frames:v 3 stops after 3 frames, each with libvmaf's scores of the whole clip
    (frame 2's motion reads frame 3); nothing leaks (valgrind on the CPU path), also when
    frames are still queued when the graph is torn down (shim, looped input)."""
    p = t.pair('natural4_176x144_yuv422p__ref_vs_x264crf34')
    vg = valgrind(t) or []
    (frames,), r = t.score(p.input(), f'[0:v][1:v]{t.filt()}[o0]', extra_out=['-frames:v', '3'],
                           wrapper=vg)
    t.compare_golden(frames, p, p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES), '-frames:v 3',
                     golden=p.golden[:3])
    # Long input, frames in flight when the output stops.
    inputs = p.dis.input(['-stream_loop', '20']) + p.ref.input(['-stream_loop', '20'])
    (frames,), r = t.score(inputs, f'[0:v][1:v]{t.filt()}[o0]', extra_out=['-frames:v', '3'],
                           wrapper=vg, env={'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '2'})
    t.check(len(frames) == 3, f'-frames:v 3 with frames in flight: {len(frames)} frames output')
    t.check(shim_report(r)[0] > 0, 'the shim held no frame back')
    if vg:
        print('valgrind: no errors, no definite or indirect leaks')


def test_inflight(t):
    """With frames in flight (LD_PRELOAD shim: scores arrive N submissions later, or only
    when waited for), the default run (motion: a frame completes after the next) outputs
    every frame once, in order, with the same scores, also at the end of the shorter input;
    the drain at EOF happens in the activate call where framesync signalled EOF."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    graph = f'[0:v][1:v]{t.filt()}[o0]'
    (base,), _ = t.score(p.input(), graph)
    t.compare_golden(base, p, p.keys(['psnr', 'float_ssim'] + MODEL_FEATURES), 'synchronous run')
    for delay in ('-1', '0', '2', '5', '20'):
        env = {'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': delay}
        for qd in ('0', '2'):
            g = f'[0:v][1:v]{t.filt("queue_depth=" + qd)}[o0]'
            (frames,), r = t.score(p.input(), g, env=env)
            eagain, waits = shim_report(r)
            what = f'delay {delay}, queue_depth {qd}'
            t.check([(f['pts'], f['crc'], f['tags']) for f in frames] ==
                    [(f['pts'], f['crc'], f['tags']) for f in base],
                    f'{what}: output differs from the synchronous run')
            if delay != '0':
                t.check(eagain > 0 and waits > 0, f'{what}: shim saw {eagain} polls, {waits} waits')
    env = {'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '-1'}
    ref5 = truncated(t, p.ref, 5)
    for opts, n in (('shortest=1', 5), ('', 10)):
        g5 = f'[0:v][1:v]{t.filt(opts)}[o0]'
        (sync5,), _ = t.score(p.dis.input() + ref5.input(), g5)
        (frames,), r = t.score(p.dis.input() + ref5.input(), g5, env=env)
        t.check(len(frames) == n and [f['tags'] for f in frames] == [f['tags'] for f in sync5],
                f'frames in flight, shorter reference ({opts or "default"}): not the synchronous '
                f'run\'s {n} frames and scores')
    vg = valgrind(t)
    if vg:
        q = t.pair('natural4_176x144_yuv422p__ref_vs_x264crf34')
        t.score(q.input(), f'[0:v][1:v]{t.filt()}[o0]', env=env, wrapper=vg)
        print('valgrind with frames in flight: clean')


def test_two_instances(t):
    """Two renditions against one reference (split) in one graph, default runs: each
    instance scores its own, with libvmaf's values, also with frames in flight, and the same
    with share_ref=0 (on the GPU the instances share each reference frame's device copy by
    default, and with it each copies its own)."""
    p1 = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    p2 = t.pair('natural1_576x324_yuv420p__ref_vs_mpeg2q28')
    graph = f'[2:v]split[r1][r2];[0:v][r1]{t.filt()}[o0];[1:v][r2]{t.filt()}[o1]'
    inputs = p1.dis.input() + p2.dis.input() + p1.ref.input()
    (f1, f2), r = t.score(inputs, graph, outputs=2)
    keys = p1.keys(['psnr', 'float_ssim'] + MODEL_FEATURES)
    t.compare_golden(f1, p1, keys, 'instance 1 (x264crf38)')
    t.compare_golden(f2, p2, keys, 'instance 2 (mpeg2q28)')
    t.check(sorted(vmaf_score_lines(r.stderr)) ==
            sorted('%f' % pool([g['vmaf'] for g in q.golden], 'mean') for q in (p1, p2)),
            f'VMAF score lines {vmaf_score_lines(r.stderr)}')
    env = {'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '3'}
    (g1, g2), _ = t.score(inputs, graph, outputs=2, env=env)
    t.check([f['tags'] for f in g1] == [f['tags'] for f in f1] and
            [f['tags'] for f in g2] == [f['tags'] for f in f2], 'two instances with frames in flight differ')
    private = f'[2:v]split[r1][r2];[0:v][r1]{t.filt("share_ref=0")}[o0];[1:v][r2]{t.filt("share_ref=0")}[o1]'
    (h1, h2), _ = t.score(inputs, private, outputs=2)
    t.check([f['tags'] for f in h1] == [f['tags'] for f in f1] and
            [f['tags'] for f in h2] == [f['tags'] for f in f2], 'two instances with share_ref=0 differ')


def read_log(path, fmt):
    """A log file in libvmaf's layout -> (per-frame {frameNum: {name: value}},
    {name: {min, max, mean, harmonic_mean}} or None for csv and sub)."""
    if fmt == 'json':
        frames, pooled = json_log(open(path).read())
        return frames, pooled
    if fmt == 'csv':
        with open(path, newline='') as f:
            rows = list(csv.DictReader(f))
        return {int(r['Frame']): {k: float(v) for k, v in r.items() if k and k != 'Frame' and v not in ('', None)}
                for r in rows}, None
    if fmt == 'sub':
        frames = {}
        for line in open(path).read().splitlines():
            m = re.match(r'^\{(\d+)\}\{(\d+)\}frame: (\d+)\|(.*)\|$', line)
            if not m or int(m[2]) != int(m[1]) + 1:
                raise ValueError(f'not a subtitle line: {line!r}')
            frames[int(m[3])] = {k: float(v) for k, v in (kv.split(': ') for kv in m[4].split('|'))}
        return frames, None
    root = ET.parse(path).getroot()
    frames = {int(fr.get('frameNum')): {k: float(v) for k, v in fr.attrib.items() if k != 'frameNum'}
              for fr in root.iter('frame')}
    pooled = {m.get('name'): {k: float(v) for k, v in m.attrib.items() if k != 'name'}
              for m in root.iter('metric')}
    return frames, pooled


def test_logfile(t):
    """log_path with each log_fmt (xml by default, json, csv, sub) in the default run: the
    file is written and parses; per-frame values equal the metadata; the pooled min, max,
    mean and harmonic mean are those of the per-frame values; bad paths are reported."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    for fmt in ('xml', 'json', 'csv', 'sub'):
        path = t.tmpfile(f'log.{fmt}')
        opts = f'log_path={path}' + ('' if fmt == 'xml' else f':log_fmt={fmt}')
        (frames,), r = t.score(p.input(), f'[0:v][1:v]{t.filt(opts)}[o0]')
        if not t.check(os.path.exists(path), f'{fmt}: no log file'):
            continue
        try:
            lframes, pooled = read_log(path, fmt)
        except Exception as e:  # noqa: BLE001 - any parse error is the failure
            t.fail(f'{fmt}: log does not parse: {e}')
            continue
        t.check(sorted(lframes) == [f['n'] for f in frames],
                f'{fmt}: frames {sorted(lframes)} in the log, {len(frames)} output')
        for fr in frames:
            lf = lframes.get(fr['n'], {})
            t.check(set(lf) == set(fr['tags']) and len(lf) == 19,
                    f'{fmt}: frame {fr["n"]}: log has {sorted(lf)}, metadata {sorted(fr["tags"])}')
            for k, v in fr['tags'].items():
                t.check(k in lf and abs(lf[k] - float(v)) <= 1e-6,
                        f'{fmt}: frame {fr["n"]} {k}: log {lf.get(k)}, metadata {v}')
        if pooled is None:
            continue
        for k in frames[0]['tags']:
            vals = [float(f['tags'][k]) for f in frames]
            if not t.check(k in pooled, f'{fmt}: no pooled {k}'):
                continue
            for s in ('min', 'max', 'mean', 'harmonic_mean'):
                w = pool(vals, s)
                t.check(s in pooled[k] and abs(pooled[k][s] - w) <= 2e-6 * max(1, abs(w)),
                        f'{fmt}: pooled {k} {s} {pooled[k].get(s)}, expected {w:.6f}')
    # A path that cannot be written fails when the filter is set up, before any frame is
    # scored, naming the path and the reason (root writes anywhere: a missing folder, a path
    # under a regular file, a folder).
    for path, reason in (('/nonexistent/dir/log.xml', 'No such file or directory'),
                         ('/etc/passwd/log.xml', 'Not a directory'),
                         (t.tmp, 'Is a directory')):
        (frames,), r = t.score(p.input(), f'[0:v][1:v]{t.filt(f"log_path={path}")}[o0]', expect_ok=False)
        t.check(r.returncode != 0, f'log_path={path}: exit status 0')
        t.check(f'Could not open the log file {path} for writing: {reason}' in r.stderr,
                f'log_path={path}: no message; stderr:\n{r.stderr[-800:]}')
        t.check('VMAF score' not in r.stderr and not frames, f'log_path={path}: frames were scored first')
    # The check leaves no file behind.
    fresh = t.tmpfile('fresh.json')
    _, r = t.score(p.input(), f"[0:v][1:v]{t.filt(f'log_path={fresh}:log_fmt=json')}:enable=0[o0]")
    t.check(not os.path.exists(fresh), f'{fresh} created with no frame scored')
    # Writing fails at the end (a full disk: /dev/full): an error, and ffmpeg's exit status.
    _, r = t.score(p.input(), f'[0:v][1:v]{t.filt("log_path=/dev/full:log_fmt=json")}[o0]', expect_ok=False)
    t.check(r.returncode != 0, 'log_path=/dev/full: exit status 0')
    t.check(re.search(r'Could not write the log file /dev/full: no space left on device', r.stderr, re.I),
            f'log_path=/dev/full: no message; stderr:\n{r.stderr[-800:]}')
    test_logfile_paths(t, p)


def test_logfile_paths(t, p):
    """Unusual log paths: a symbolic link is written through (the link stays, its target gets
    the log); a name too long for a temporary file beside it is written in place; a path of
    100 kB is cut in the message, which keeps its reason; an error of the write names it (a
    file over the size limit: 'file too large', not 'unknown error')."""
    def run_log(path, expect_ok=True, wrapper=()):
        cmd = list(wrapper) + t.ffmpeg_cmd(*p.input(), '-lavfi',
                                           f'[0:v][1:v]{t.filt(f"log_path={path}")}', '-f', 'null', '-')
        return t.run(cmd, expect_ok=expect_ok)

    target, link = t.tmpfile('target.xml'), t.tmpfile('link.xml')
    with open(target, 'w') as f:
        f.write('old content')
    if os.path.lexists(link):
        os.remove(link)
    os.symlink('target.xml', link)
    run_log(link)
    t.check(os.path.islink(link), f'{link} is no longer a symbolic link')
    t.check(open(target).read().startswith('<VMAF'), f'{target}: the log was not written there')

    # 250 bytes: a valid name, but "<name>.<pid>.<n>" is not.
    long_name = t.tmpfile('l' * 246 + '.xml')
    r = run_log(long_name, expect_ok=False)
    t.check(r.returncode == 0 and os.path.exists(long_name),
            f'log_path with a 250-byte name: not written; stderr:\n{r.stderr[-800:]}')
    if os.path.exists(long_name):
        os.remove(long_name)

    huge = '/tmp/' + 'x' * 100000
    r = run_log(huge, expect_ok=False)
    cut = f'/tmp/{"x" * 95}...{"x" * 40} (100005 bytes)'
    t.check(r.returncode != 0 and
            f'Could not open the log file {cut} for writing: File name too long' in r.stderr,
            f'log_path of 100 kB: no message with the reason; stderr:\n{r.stderr[-800:]}')

    # At most 1024 bytes per file (ulimit -f counts 512-byte blocks in sh); SIGXFSZ ignored,
    # so that the write fails with EFBIG.
    big = t.tmpfile('big.xml')
    r = run_log(big, expect_ok=False, wrapper=('sh', '-c', 'trap "" XFSZ; ulimit -f 2; exec "$@"', 'sh'))
    t.check(r.returncode != 0 and
            re.search(f'Could not write the log file {re.escape(big)}: file too large', r.stderr),
            f'log_path over the file size limit: no reason; stderr:\n{r.stderr[-800:]}')


def test_timeline(t):
    """enable= (timeline): disabled frames pass through unscored and unchanged."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    (base,), _ = t.score(p.dis.input(), '[0:v]null[o0]')
    for opts, nkeys in (('feature=name=psnr:model=', 3), ('', 19)):
        (frames,), _ = t.score(p.input(), f"[0:v][1:v]{t.filt(opts)}:enable='gte(t,0.2)'[o0]")
        t.check(len(frames) == 10, f'{opts}: {len(frames)} frames output')
        t.check([len(f['tags']) for f in frames] == [nkeys if f['pts'] >= 5 else 0 for f in frames],
                f'{opts}: scored frames {[f["n"] for f in frames if f["tags"]]}, expected 5..9')
        t.check([f['crc'] for f in frames] == [f['crc'] for f in base], f'{opts}: main frames were modified')
    t.check(all(frames[n]['tags'].get('psnr_y') == '%.6f' % p.golden[n]['psnr_y'] for n in range(5, 10)),
            'timeline: psnr_y of the enabled frames differs from the golden')


def error_case(t, p, opts, pattern, what):
    _, r = t.score(p.input(), f'[0:v][1:v]{t.filt(opts)}[o0]', expect_ok=False)
    t.check(r.returncode != 0, f'{what}: exit status 0')
    t.check(re.search(pattern, r.stderr) is not None,
            f'{what}: no message matching {pattern!r}; stderr:\n{r.stderr[-1200:]}')


def test_errors(t):
    """Bad settings fail with a clear message from the filter or the library: log_fmt,
    pool, unknown feature, feature and model syntax errors, unknown model version, model
    files that are missing or malformed, nothing to compute; backend=hip without a GPU;
    backend=auto falls back to the CPU with one warning."""
    p = t.pair('natural4_176x144_yuv422p__ref_vs_x264crf34')
    broken = t.tmpfile('broken model.json')
    with open(broken, 'w') as f:
        f.write('{"model_dict": {"model_type": "LIBSVMNUSVR", "feature_names": [')
    cases = [
        ('log_fmt=yaml', r"log_fmt 'yaml' is not valid: accepted are json, csv, xml, sub", 'bad log_fmt'),
        ('pool=median', r"pool 'median' is not valid: accepted are mean, min, max, harmonic_mean", 'bad pool'),
        ('feature=name=no_such_feature', r"feature 'name=no_such_feature': unknown feature 'no_such_feature': "
                                      r"accepted features are psnr, float_ssim, adm, vif, motion", 'unknown feature'),
        ('feature=psnr|ssim', r"unknown feature 'ssim'", 'unknown feature, CLI spelling'),
        ('feature=' + q('name=psnr:enable_chroma'), r"feature 'name=psnr:enable_chroma': 'enable_chroma' is not "
                                            r"of the form option=value", 'feature option without value'),
        ('feature=' + q('name=psnr:no_such_option=1'), r"feature 'name=psnr:no_such_option=1': .*no_such_option",
         'unknown feature option'),
        ('feature=' + q('name=psnr:enable_chroma=maybe'), r"feature 'name=psnr:enable_chroma=maybe': .*maybe",
         'bad feature option value'),
        ('model=version=vmaf_v9', r'model version "vmaf_v9" is not a built-in model \(built in: .*vmaf_v0\.6\.1',
         'unknown model version'),
        ('model=name=vmaf', r"model 'name=vmaf': neither version= \(a built-in model\) nor path= ",
         'model without version or path'),
        ('model=' + q('version=vmaf_v0.6.1:bogus'), r"model 'version=vmaf_v0.6.1:bogus': 'bogus' is not of the form "
                                              r"key=value", 'model syntax'),
        ('model=' + q('version=vmaf_v0.6.1:frobnicate=1'), r"unknown key 'frobnicate': accepted keys are version, path",
         'unknown model key'),
        ('model=' + q('version=vmaf_v0.6.1:disable_clip=yes'), r"disable_clip=yes is not valid: accepted values are "
                                                         r"true and false", 'bad model boolean'),
        (f"model='path={broken}'", r'model file "?' + re.escape(broken) + r'"?: .*(JSON|json)',
         'malformed model file'),
        (f"model='path={t.tmpfile('missing.json')}'", re.escape(t.tmpfile('missing.json')) +
         r'.*No such file or directory', 'missing model file'),
        ('feature=:model=', r'nothing to compute: the settings name no model and no feature', 'nothing to compute'),
        ('n_subsample=0', r'n_subsample.*0', 'n_subsample out of range'),
    ]
    for opts, pattern, what in cases:
        error_case(t, p, opts, pattern, what)
    if t.gpu_count() == 0:
        error_case(t, p, 'backend=hip', r'libvmaf_hip.*(GPU|gpu)', 'backend=hip without a GPU')
        (frames,), r = t.score(p.input(), '[0:v][1:v]libvmaf_hip=backend=auto[o0]')
        t.check(len(frames) == p.dis.frames and all(len(f['tags']) == 19 for f in frames),
                'backend=auto failed')
        t.check(r.stderr.count('scoring on the CPU') == 1, 'backend=auto: not exactly one warning')


def test_passthrough(t):
    """The output is the main input, bit for bit, with the main input's timestamps."""
    p = t.pair('natural5_176x144_yuv444p__ref_vs_mjpegq20')
    (frames,), _ = t.score(p.input(), f'[0:v][1:v]{t.filt()}[o0]')
    (base,), _ = t.score(p.dis.input(), '[0:v]null[o0]')
    t.check([(f['pts'], f['crc']) for f in frames] == [(f['pts'], f['crc']) for f in base],
            'output frames differ from the main input')
    t.check(all(len(f['tags']) == 19 for f in frames), 'not every frame scored')


def test_size_change(t):
    """A filter before libvmaf_hip that changes the frame size on the fly (scale with
    eval=frame), on either input, larger or smaller: the stream fails at that frame pair with
    a message naming both sizes; no frame is scored at the wrong size and nothing crashes
    (a larger frame must not be written into a picture the library lent at the first size)."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    for side, (w, h) in (('main', (640, 360)), ('main', (512, 288)), ('reference', (640, 360))):
        change = f"scale=w='if(lt(n,3),576,{w})':h='if(lt(n,3),324,{h})':eval=frame"
        graph = (f'[0:v]{change}[d];[d][1:v]{t.filt()}[o0]' if side == 'main' else
                 f'[1:v]{change}[r];[0:v][r]{t.filt()}[o0]')
        _, r = t.score(p.input(), graph, expect_ok=False)
        what = f'{side} input changing to {w}x{h}'
        t.check(r.returncode > 0, f'{what}: exit status {r.returncode}, not an error')
        # scale counts its frames from 0 or 1 (n) depending on the FFmpeg version.
        pattern = (rf'The {side} input changed to {w}x{h} yuv420p at frame pair [23], but the '
                   rf'stream started at 576x324 yuv420p')
        t.check(re.search(pattern, r.stderr) is not None,
                f'{what}: no message matching {pattern!r}; stderr:\n{r.stderr[-1200:]}')


def test_lent(t):
    """Frames that the filters before this one allocate are written into memory the library
    lends (pinned on the GPU: no host copy), counted at the end; they score exactly as frames
    in FFmpeg's own memory (a setpts between keeps the allocation FFmpeg's)."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    runs = {}
    for what, tail in (('lent', ''), ('own', ',setpts=PTS')):
        graph = f'[0:v]avgblur=1{tail}[d];[1:v]avgblur=1{tail}[r];[d][r]{t.filt()}[o0]'
        (frames,), r = t.score(['-v', 'verbose'] + p.input(), graph)
        runs[what] = frames
        m = re.search(r'(\d+) input frames were allocated in memory the library lends', r.stderr)
        t.check(m and int(m.group(1)) == (20 if what == 'lent' else 0),
                f'{what}: lent frames {m and m.group(1)}, expected {20 if what == "lent" else 0}')
    t.check(len(runs['lent']) == 10 and all(len(f['tags']) == 19 for f in runs['lent']),
            'lent: not every frame scored')
    t.check([f['tags'] for f in runs['lent']] == [f['tags'] for f in runs['own']],
            'scores from lent memory differ from those from FFmpeg\'s memory')
    t.check([f['crc'] for f in runs['lent']] == [f['crc'] for f in runs['own']],
            'output frames from lent memory differ')


def test_semiplanar(t):
    """The semi-planar formats of hardware decoders reach the library as they are (no
    conversion back to planar: the filter says it scores nv12 / p010le) and score as
    libvmaf scores the planar frames: 4:2:0, 4:2:2 and 4:4:4 at 8 bits (nv12, nv16, nv24)
    and 10 bits with the value in the high bits (p010le), every extractor and the model,
    each value equal to the golden."""
    nb = 0
    for stem, pix_fmt in (('natural1_576x324_yuv420p__ref_vs_x264crf38', 'nv12'),
                          ('natural4_176x144_yuv422p__ref_vs_x264crf34', 'nv16'),
                          ('natural5_176x144_yuv444p__ref_vs_mjpegq20', 'nv24'),
                          ('natural2_352x288_yuv420p10le__ref_vs_x265crf32', 'p010le')):
        p = t.pair(stem)
        feats = p.features()
        opts = f"feature='{'|'.join('name=' + f for f in feats)}':model={DEFAULT_MODEL}"
        graph = f'[0:v]format={pix_fmt}[d];[1:v]format={pix_fmt}[r];[d][r]{t.filt(opts)}[o0]'
        (frames,), r = t.score(['-v', 'verbose'] + p.input(), graph)
        t.check(f'scoring {p.dis.w}x{p.dis.h} {pix_fmt} on' in r.stderr,
                f'{pix_fmt}: the filter did not score {pix_fmt}:\n{r.stderr[-1500:]}')
        t.check('converted from' not in r.stderr, f'{pix_fmt}: FFmpeg converted an input')
        nb += t.compare_golden(frames, p, p.keys(feats + ['vmaf']), f'{p.stem} as {pix_fmt}')
    print(f'{nb} values compared')


def test_handover(t):
    """The filter's default on a GPU: the frames that arrive while the GPU starts are scored
    on the CPU, the rest on the GPU. On 300 frames (the pair ten times over: the GPU is
    ready within them) every frame's scores equal those of the CPU backend, and ffmpeg's
    debug log names the frame where the GPU took over. With backend=cpu (CI) the same run
    checks a longer stream against itself on another thread count."""
    p = t.pair('natural1_576x324_yuv420p__ref_vs_x264crf38')
    loop = ['-stream_loop', '29']
    inputs = raw_input(p.dis.path, p.dis.w, p.dis.h, p.dis.pix_fmt, loop) + \
        raw_input(p.ref.path, p.ref.w, p.ref.h, p.ref.pix_fmt, loop)
    (cpu,), _ = t.score(inputs, '[0:v][1:v]libvmaf_hip=backend=cpu:n_threads=1[o0]')
    # On a busy host (other GPU processes starting at once) the driver's start
    # may outlast the stream: such a run scores all on the CPU, so it is run
    # again; a handover that never comes fails all three.
    for attempt in range(3):
        (ours,), r = t.score(['-v', 'debug'] + inputs, f'[0:v][1:v]libvmaf_hip=backend={BACKEND}[o0]')
        t.check(len(ours) == len(cpu) == 300, f'{len(ours)} and {len(cpu)} frames, expected 300')
        for a, b in zip(ours, cpu):
            t.check(a['tags'] == b['tags'] or (BACKEND != 'cpu' and all(
                t.same_value(k, a['tags'][k], float(b['tags'][k])) for k in b['tags'])),
                f'frame {a["n"]}: {a["tags"]} against the CPU {b["tags"]}')
        m = re.search(r'frames 0 to (\d+) scored on cpu while the GPU starts; (.*) from frame', r.stderr)
        if BACKEND == 'cpu' or m:
            break
        print(f'run {attempt + 1}: no handover in the debug log')
    if BACKEND != 'cpu':
        t.check(m, 'no handover in the debug log in three runs (was the GPU ready before the first '
                'frame, or after the last?)')
        if m:
            print(f'handed over to {m[2]} at frame {int(m[1]) + 1}')


def test_fate(t):
    """The FATE test of the patches, through FFmpeg's make in the built tree: the default
    run (vmaf, ADM, VIF, motion, psnr, float_ssim) on FATE's refcmp clip."""
    build = os.path.dirname(t.ffmpeg)
    if not os.path.exists(os.path.join(build, 'Makefile')):
        raise Skip(f'{build} is not an FFmpeg build tree')
    target = ('fate-filter-refcmp-libvmaf-hip-yuv420p' if BACKEND == 'cpu'
              else 'fate-filter-refcmp-libvmaf-hip-gpu-yuv420p')
    listed = t.run(['make', '-s', '-C', build, 'fate-list']).stdout.split()
    if target not in listed:
        t.fail(f'{target} is not among the FATE tests of {build}')
        return
    r = t.run(['make', '-C', build, target], expect_ok=False)
    t.check(r.returncode == 0, f'make {target} failed:\n{r.stdout[-3000:]}{r.stderr[-3000:]}')
    ref = os.path.join(build, 'src', 'tests', 'ref', 'fate', 'filter-refcmp-libvmaf-hip-yuv420p')
    if os.path.exists(ref):
        printed = parse_print(open(ref).read())
        t.check(len(printed) == 5 and all(len(v) == 19 for v in printed.values()),
                f'{ref}: not 5 frames of 19 scores')
        t.check(all(0 <= float(v['vmaf']) <= 100 for v in printed.values()), f'{ref}: vmaf out of 0..100')


TESTS = {
    'options': test_options,
    'golden-all': lambda t: golden_test(t, 'all'),
    'golden-psnr': lambda t: golden_test(t, 'psnr'),
    'golden-float_ssim': lambda t: golden_test(t, 'float_ssim'),
    'golden-adm': lambda t: golden_test(t, 'adm'),
    'golden-vif': lambda t: golden_test(t, 'vif'),
    'golden-motion': lambda t: golden_test(t, 'motion'),
    'golden-vmaf': lambda t: golden_test(t, 'vmaf'),
    'dropin': test_dropin,
    'models': test_models,
    'vmaf-v1': test_vmaf_v1,
    'float-ctc': test_float_ctc,
    'metadata': test_metadata,
    'ffprobe': test_ffprobe,
    'eof': test_eof,
    'lengths': test_lengths,
    'mismatch': test_mismatch,
    'bitdepth': test_bitdepth,
    'range-error': test_range_error,
    'adm-limits': test_adm_limits,
    'frames-limit': test_frames_limit,
    'inflight': test_inflight,
    'two-instances': test_two_instances,
    'logfile': test_logfile,
    'timeline': test_timeline,
    'passthrough': test_passthrough,
    'lent': test_lent,
    'semiplanar': test_semiplanar,
    'handover': test_handover,
    'size-change': test_size_change,
    'errors': test_errors,
    'fate': test_fate,
}


def main(argv):
    if argv[1:] == ['--list']:
        print('\n'.join(TESTS))
        return 0
    if len(argv) < 2 or argv[1] not in TESTS:
        print(__doc__, file=sys.stderr)
        return 2
    name, args = argv[1], {'probe': None, 'shim': None, 'rcpss_fingerprint': None}
    here = os.path.dirname(os.path.abspath(__file__))
    args['source_root'] = os.path.normpath(os.path.join(here, '..', '..'))
    args['fixtures'] = os.path.join(args['source_root'], 'tests', 'fixtures')
    it = iter(argv[2:])
    for a in it:
        key = a.lstrip('-').replace('-', '_')
        if key not in ('probe', 'shim', 'rcpss_fingerprint', 'fixtures', 'source_root'):
            print(f'unknown argument {a}', file=sys.stderr)
            return 2
        args[key] = os.path.abspath(next(it))
    try:
        t = Test(args)
    except Skip as e:
        print('SKIP:', e)
        return SKIP
    try:
        TESTS[name](t)
    except Skip as e:
        print('SKIP:', e)
        return SKIP
    except Fail as e:
        t.fail(str(e))
    finally:
        if not t.failures and not VERBOSE:
            shutil.rmtree(t.tmp, ignore_errors=True)
    if t.failures:
        print(f'{name}: {len(t.failures)} failures (files in {t.tmp})')
        return 1
    print(f'{name}: passed')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
