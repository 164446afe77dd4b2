#!/usr/bin/env python3
"""Filter tests: a patched ffmpeg (tools/build-ffmpeg) running libvmaf_hip on tests/fixtures.

    run_filter_tests.py TEST --probe PROBE --shim SHIM [--fixtures DIR] [--source-root DIR]
    run_filter_tests.py --list

Each TEST is one meson test (suite 'filter'); see TESTS at the end for what each checks.
Environment:
    VMAFHIP_TEST_FFMPEG   the patched ffmpeg, absolute or relative to the source tree
                          (default: build/ffmpeg-8.1/ffmpeg, else the 9.0, then the 7.1
                          build); ffprobe is taken from its folder
    VMAFHIP_TEST_BACKEND  backend= of every run: cpu (default; CI has no GPU) or hip
    VMAFHIP_TEST_VERBOSE  1: print every command
Exit status: 0 passed, 1 failed, 77 skipped (no patched ffmpeg, or a precondition is missing).

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
FILTER_ONLY_OPTIONS = {'feature', 'backend', 'device', 'queue_depth', 'log_path', 'log_fmt'}
REQUIRED = {
    'psnr': ['psnr_y', 'psnr_cb', 'psnr_cr'],
    'float_ssim': ['float_ssim'],
    'adm': ['integer_adm2', 'integer_adm_scale0', 'integer_adm_scale1', 'integer_adm_scale2',
            'integer_adm_scale3'],
}


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


class Pair:
    """A golden: distorted and reference fixture plus libvmaf's scores."""

    def __init__(self, t, stem):
        self.stem = stem
        m = re.match(r'(.+_\d+x\d+_[a-z0-9]+)__(\w+)_vs_(\w+)$', stem)
        self.ref = Fixture(os.path.join(t.fixtures, f'{m[1]}_{m[2]}.yuv'))
        self.dis = Fixture(os.path.join(t.fixtures, f'{m[1]}_{m[3]}.yuv'))
        base = os.path.join(t.fixtures, 'golden', stem)
        # The plain-C path of libvmaf is the reference where its SIMD paths differ.
        path = base + '.cpumask63.fullprec.json'
        if not os.path.exists(path):
            path = base + '.fullprec.json'
        with open(path) as f:
            self.golden = [fr['metrics'] for fr in json.load(f)['frames']]
        self.golden_path = path

    def features(self):
        """The features whose golden is well defined at this size (MANIFEST.md)."""
        w, h = self.ref.w, self.ref.h
        out = ['psnr']
        if w >= 11 and h >= 11:
            out.append('float_ssim')
        if w >= 37 and h >= 33:  # below that libvmaf's ADM reads out of bounds
            out.append('adm')
        return out


class Test:
    def __init__(self, args):
        self.source = args['source_root']
        self.fixtures = args['fixtures']
        self.probe = args['probe']
        self.shim = args['shim']
        self.ffmpeg = self.find_ffmpeg()
        self.ffprobe = os.path.join(os.path.dirname(self.ffmpeg), 'ffprobe')
        self.tmp = tempfile.mkdtemp(prefix='vmafhip-filter-')
        self.failures = []

    def find_ffmpeg(self):
        env = os.environ.get('VMAFHIP_TEST_FFMPEG')
        if env and not os.path.isabs(env) and not os.path.exists(env):
            env = os.path.join(self.source, env)  # meson runs tests in the build folder
        candidates = [env] if env else [
            os.path.join(self.source, 'build', f'ffmpeg-{v}', 'ffmpeg') for v in ('8.1', '9.0', '7.1')]
        for c in candidates:
            if c and os.access(c, os.X_OK):
                break
        else:
            raise Skip('no patched ffmpeg: build one with tools/build-ffmpeg <version> --minimal '
                       f'or set VMAFHIP_TEST_FFMPEG (looked for {", ".join(candidates)})')
        r = subprocess.run([c, '-hide_banner', '-h', 'filter=libvmaf_hip'],
                           capture_output=True, text=True)
        if 'libvmaf_hip AVOptions' not in r.stdout:
            raise Skip(f'{c} has no libvmaf_hip filter: build it with tools/build-ffmpeg')
        print(f'ffmpeg: {c}; backend={BACKEND}')
        return c

    # --- running --------------------------------------------------------
    def run(self, cmd, expect_ok=True, env=None, timeout=900):
        if VERBOSE:
            print('+', ' '.join(cmd))
        full_env = dict(os.environ)
        full_env.update(env or {})
        r = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=timeout)
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
        each frame {'n', 'pts', 'crc', 'tags'}."""
        cmd = list(wrapper) + self.ffmpeg_cmd(*inputs)
        chains, maps = [], []
        for i in range(outputs):
            meta = self.tmpfile(f'meta{i}.txt')
            if os.path.exists(meta):
                os.remove(meta)
            chains.append(f'[o{i}]metadata=print:file={meta}[m{i}]')
            maps += ['-map', f'[m{i}]', *extra_out, '-c:v', 'rawvideo', '-f', 'framecrc',
                     self.tmpfile(f'crc{i}.txt')]
        cmd += ['-filter_complex', ';'.join([graph] + chains)] + maps
        r = self.run(cmd, expect_ok=expect_ok, env=env, timeout=timeout)
        if r.returncode != 0:
            return None, r
        return [self.read_output(i) for i in range(outputs)], r

    def read_output(self, i):
        frames = []
        with open(self.tmpfile(f'crc{i}.txt')) as f:
            for line in f:
                if line.startswith('#'):
                    continue
                fields = [x.strip() for x in line.split(',')]
                frames.append({'n': len(frames), 'pts': int(fields[2]), 'crc': fields[5],
                               'tags': {}})
        meta = self.tmpfile(f'meta{i}.txt')
        for n, tags in parse_print(open(meta).read() if os.path.exists(meta) else '').items():
            if n >= len(frames):
                continue  # metadata saw it, but the output stopped before (-frames:v)
            frames[n]['tags'] = tags
        return frames

    def filt(self, opts=''):
        """libvmaf_hip with the test backend and more options."""
        return f'libvmaf_hip=backend={BACKEND}' + (f':{opts}' if opts else '')

    def probe_scores(self, w, h, pix_fmt, dis, ref, features='psnr+float_ssim+adm'):
        r = self.run([self.probe, 'score', str(w), str(h), pix_fmt, dis, ref,
                      '-f', features, '-b', BACKEND])
        return list(parse_print(r.stdout).values())

    # --- checking -------------------------------------------------------
    def check(self, cond, msg):
        if not cond:
            self.fail(msg)
        return cond

    def fail(self, msg):
        self.failures.append(msg)
        print('FAIL:', msg)

    def compare_golden(self, frames, pair, features, what):
        """Every tag equals libvmaf's value printed %.6f; the required ones are there."""
        self.check(len(frames) == len(pair.golden),
                   f'{what}: {len(frames)} frames output, the golden has {len(pair.golden)}')
        nb = 0
        for fr, gold in zip(frames, pair.golden):
            required = [k for f in features for k in REQUIRED[f]
                        if not (pair.ref.pix_fmt.startswith('gray') and k in ('psnr_cb', 'psnr_cr'))]
            for k in required:
                self.check(k in fr['tags'], f'{what}: frame {fr["n"]}: no {PREFIX}{k}')
            for k, v in fr['tags'].items():
                if k not in gold:
                    self.fail(f'{what}: frame {fr["n"]}: {k} is not a libvmaf name '
                              f'(not in {os.path.basename(pair.golden_path)})')
                    continue
                want = '%.6f' % gold[k]
                ok = v == want
                if not ok and BACKEND != 'cpu' and k.startswith('float_ssim'):
                    ok = abs(float(v) - gold[k]) <= 1.5e-6  # GPU SSIM: within 1e-6
                self.check(ok, f'{what}: frame {fr["n"]}: {k}={v}, libvmaf {want}')
                nb += 1
        return nb


def parse_print(text):
    """metadata=print output -> {frame number: {name: value}} for our keys."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r'frame:(\d+)(\s|$)', line)
        if m:
            cur = out.setdefault(int(m[1]), {})
        elif cur is not None and line.startswith(PREFIX):
            k, v = line[len(PREFIX):].split('=', 1)
            cur[k] = v
    return out


def pairs(t):
    # <pair>[.<variant>].json: the pair is the name up to its first dot
    stems = sorted({os.path.basename(p).split('.', 1)[0]
                    for p in glob.glob(os.path.join(t.fixtures, 'golden', '*.json'))})
    return [Pair(t, s) for s in stems]


def pair_input(pair):
    return pair.dis.input() + pair.ref.input()


# --- tests ------------------------------------------------------------------
def golden_test(t, feature):
    """Each fixture pair with feature=<feature> (all three for 'all'): every frame's
    metadata equals libvmaf's golden value printed %.6f."""
    nb = 0
    for p in pairs(t):
        feats = p.features()
        if feature != 'all':
            if feature not in feats:
                continue
            feats = [feature]
        (frames,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt("feature=" + "+".join(feats))}[o0]')
        nb += t.compare_golden(frames, p, feats, p.stem)
        for fr in frames:
            allowed = {k for f in feats for k in REQUIRED[f]}
            if feature == 'psnr':
                t.check(set(fr['tags']) <= allowed,
                        f'{p.stem}: feature=psnr gave other scores: {sorted(fr["tags"])}')
    print(f'{nb} values compared')
    t.check(nb > 0, 'nothing compared')


def test_options(t):
    """The filter's metric options have the library's names, types, defaults and ranges
    (ffmpeg -h filter=libvmaf_hip against vmafhip_option_info()), and they reach it."""
    h = t.run([t.ffmpeg, '-hide_banner', '-h', 'filter=libvmaf_hip']).stdout
    section = h.split('libvmaf_hip AVOptions:')[1].split('AVOptions:')[0]
    opts = {}
    for line in section.splitlines():
        m = re.match(r'^   (\w+)\s+<(\w+)>\s+\S+\s(.*)$', line)
        if m:
            rng = re.search(r'\(from (\S+) to (\S+)\)', m[3])
            d = re.search(r'\(default (.*?)\)$', m[3])
            opts[m[1]] = {'type': m[2], 'range': rng.groups() if rng else None,
                          'default': d[1] if d else None}
    lib = [line.split('\t') for line in t.run([t.probe, 'options']).stdout.splitlines()]

    def num(x):
        return {'DBL_MAX': sys.float_info.max, 'INT_MAX': 2**31 - 1}.get(x, None) or float(x)

    for feature, name, default, rng in lib:
        o = opts.get(name)
        if not t.check(o is not None, f'library option {feature} {name} is not a filter option'):
            continue
        if rng == 'true or false':
            t.check(o['type'] == 'boolean', f'{name}: library boolean, filter <{o["type"]}>')
            t.check(o['default'] == default, f'{name}: default {o["default"]}, library {default}')
            continue
        lo, hi = rng.split(' to ')
        t.check(o['type'] in ('int', 'double'), f'{name}: filter type <{o["type"]}>')
        t.check(o['range'] is not None and (num(o['range'][0]), num(o['range'][1])) == (num(lo), num(hi)),
                f'{name}: filter range {o["range"]}, library {lo} to {hi}')
        t.check(o['default'] is not None and num(o['default']) == num(default),
                f'{name}: filter default {o["default"]}, library {default}')
    names = {row[1] for row in lib}
    for name in opts:
        t.check(name in names or name in FILTER_ONLY_OPTIONS,
                f'filter option {name} is neither a library option nor a known filter option')
    print(f'{len(lib)} library options checked against {len(opts)} filter options')

    # The values reach the library (passed to vmafhip_settings_set() as text).
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    (frames,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt("feature=psnr:enable_chroma=0")}[o0]')
    t.check(all(set(f['tags']) == {'psnr_y'} for f in frames),
            f'enable_chroma=0: expected only psnr_y, got {sorted(frames[0]["tags"])}')
    (frames,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt("feature=psnr:enable_mse=1")}[o0]')
    t.check(all('mse_y' in f['tags'] for f in frames), 'enable_mse=1: no mse_y')
    (frames,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt("feature=psnr:min_sse=1e-300")}[o0]')
    t.check(frames[0]['tags']['psnr_y'] == '%.6f' % p.golden[0]['psnr_y'],
            'min_sse: a tiny floor changed psnr_y')
    # threads is FFmpeg's generic filter option; it sets the library's CPU threads.
    (one,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt()}:threads=1[o0]')
    (many,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt()}:threads=3[o0]')
    t.check([f['tags'] for f in one] == [f['tags'] for f in many], 'threads=1 and threads=3 differ')
    _, r = t.score(pair_input(p), f'[0:v][1:v]{t.filt()}:threads=5000[o0]', expect_ok=False)
    t.check(r.returncode != 0 and re.search(r'libvmaf_hip.*threads 5000', r.stderr) is not None,
            f'threads=5000 did not reach the library; stderr:\n{r.stderr[-1500:]}')


def test_metadata(t):
    """metadata=print to a file and to stdout, and metadata=select on our numeric values."""
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    r = t.run(t.ffmpeg_cmd(*pair_input(p), '-lavfi',
                           f'[0:v][1:v]{t.filt()},metadata=print:file=-', '-f', 'null', '-'))
    printed = parse_print(r.stdout)
    t.check(len(printed) == p.dis.frames, f'metadata=print:file=- printed {len(printed)} frames')
    t.check(all(v['psnr_y'] == '%.6f' % p.golden[n]['psnr_y'] for n, v in printed.items()),
            'metadata=print:file=- psnr_y differs from libvmaf')
    # Pooled means at the end: one line per feature.
    for name in printed[0]:
        t.check(re.search(rf'\] {name} mean: -?\d+\.\d{{6}}$', r.stderr, re.M),
                f'no pooled mean line for {name}')
    mean = sum(round(g['psnr_y'], 6) for g in p.golden) / len(p.golden)
    m = re.search(r'\] psnr_y mean: (\S+)', r.stderr)
    t.check(m and abs(float(m[1]) - mean) < 1e-5, f'psnr_y mean {m and m[1]}, expected {mean:.6f}')
    # select by value: the values are plain decimals that the metadata filter compares.
    threshold = 29.6
    want = sum(1 for g in p.golden if g['psnr_y'] > threshold)
    (frames,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt("feature=psnr")},metadata=mode=select:'
                           f'key={PREFIX}psnr_y:value={threshold}:function=greater[o0]')
    t.check(len(frames) == want, f'metadata select psnr_y>{threshold}: {len(frames)} frames, expected {want}')
    t.check(0 < want < p.dis.frames, 'select threshold does not split the clip')


def test_ffprobe(t):
    """ffprobe -f lavfi with movie= sources reads the keys as frame tags."""
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    y4m = {}
    for fx in (p.dis, p.ref):
        y4m[fx.tag] = t.tmpfile(f'{fx.tag}.y4m')
        t.run(t.ffmpeg_cmd(*fx.input(), '-c:v', 'rawvideo', '-f', 'yuv4mpegpipe', y4m[fx.tag]))
    if not os.access(t.ffprobe, os.X_OK):
        raise Skip(f'no ffprobe next to {t.ffmpeg}')
    graph = f'movie={y4m[p.dis.tag]}[m];movie={y4m[p.ref.tag]}[r];[m][r]{t.filt()}[out0]'
    r = t.run([t.ffprobe, '-v', 'error', '-f', 'lavfi', graph,
               '-show_entries', 'frame=pts:frame_tags', '-of', 'json'])
    frames = json.loads(r.stdout)['frames']
    t.check(len(frames) == p.dis.frames, f'ffprobe: {len(frames)} frames, expected {p.dis.frames}')
    for n, fr in enumerate(frames):
        tags = fr.get('tags', {})
        t.check(tags.get(PREFIX + 'psnr_y') == '%.6f' % p.golden[n]['psnr_y'],
                f'ffprobe frame {n}: psnr_y {tags.get(PREFIX + "psnr_y")}')
        for k in REQUIRED['psnr'] + REQUIRED['float_ssim'] + REQUIRED['adm']:
            t.check(PREFIX + k in tags, f'ffprobe frame {n}: no {k}')


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


def test_lengths(t):
    """Unequal lengths stop at the shorter input (shortest=1 by default; shortest=0 gives
    framesync's repeat); frames before the first reference frame and pairs with different
    timestamps are counted and reported."""
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    ref5, dis5 = truncated(t, p.ref, 5), truncated(t, p.dis, 5)
    for what, inputs in (('reference shorter', p.dis.input() + ref5.input()),
                         ('main shorter', dis5.input() + p.ref.input())):
        (frames,), _ = t.score(inputs, f'[0:v][1:v]{t.filt("feature=psnr")}[o0]')
        t.check(len(frames) == 5, f'{what}: {len(frames)} frames output, expected 5')
        t.check(all(f['tags'].get('psnr_y') == '%.6f' % p.golden[f['n']]['psnr_y'] for f in frames),
                f'{what}: wrong scores')
    (frames,), _ = t.score(p.dis.input() + ref5.input(),
                           f'[0:v][1:v]{t.filt("feature=psnr:shortest=0")}[o0]')
    t.check(len(frames) == 10, f'shortest=0: {len(frames)} frames output, expected 10 (framesync repeat)')
    # Reference delayed by 50 ms: main frames 0 and 1 (0, 40 ms) have none; the others pair
    # with the reference frame 10 ms or 30 ms earlier.
    graph = (f'[1:v]settb=1/1000,setpts=PTS+50/(1000*TB)[r];[0:v]settb=1/1000[d];'
             f'[d][r]{t.filt("feature=psnr")}[o0]')
    (frames,), r = t.score(pair_input(p), graph)
    t.check(len(frames) == 10, f'delayed reference: {len(frames)} frames output, expected 10')
    t.check(not frames[0]['tags'] and not frames[1]['tags'] and all(f['tags'] for f in frames[2:]),
            'delayed reference: frames 0 and 1 should be unscored, the rest scored')
    t.check('2 main frames had no reference frame' in r.stderr, 'no warning about 2 unmatched frames')
    t.check('8 of 8 frame pairs were matched with different timestamps' in r.stderr,
            'no warning about 8 pairs with different timestamps')


def test_mismatch(t):
    """Different sizes or formats fail at configure time, naming both inputs."""
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    cases = [('[1:v]scale=288:162[r]', 'reference is 288x162 yuv420p, main is 576x324 yuv420p'),
             ('[1:v]format=yuv444p[r]', 'reference is 576x324 yuv444p, main is 576x324 yuv420p'),
             ('[1:v]format=yuv420p10le[r]', 'reference is 576x324 yuv420p10le, main is 576x324 yuv420p')]
    for pre, msg in cases:
        _, r = t.score(pair_input(p), f'{pre};[0:v][r]{t.filt()}[o0]', expect_ok=False)
        t.check(r.returncode != 0, f'{pre}: exit status 0')
        t.check(msg + ': both inputs must have the same size and pixel format' in r.stderr,
                f'{pre}: message missing; stderr:\n{r.stderr[-1500:]}')


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
    """12-bit (the 10-bit fixture scaled by 4) and 16-bit (by 64) input: the filter's metadata
    equals the library's scores on the same data (vmafhip_probe, through the public API)."""
    p = next(p for p in pairs(t) if p.ref.pix_fmt == 'yuv420p10le')
    for pix_fmt, factor, feats in (('yuv420p12le', 4, 'psnr+float_ssim+adm'),
                                   ('yuv420p16le', 64, 'psnr+float_ssim')):
        dis, ref = scaled(t, p.dis, factor, pix_fmt), scaled(t, p.ref, factor, pix_fmt)
        (frames,), _ = t.score(dis.input() + ref.input(), f'[0:v][1:v]{t.filt("feature=" + feats)}[o0]')
        want = t.probe_scores(dis.w, dis.h, pix_fmt, dis.path, ref.path, feats)
        t.check(len(frames) == len(want) == p.dis.frames,
                f'{pix_fmt}: {len(frames)} frames, library {len(want)}')
        for fr, w in zip(frames, want):
            t.check(fr['tags'] == w, f'{pix_fmt} frame {fr["n"]}: filter {fr["tags"]}, library {w}')
        t.check(frames and frames[0]['tags'].get('psnr_y') != '%.6f' % p.golden[0]['psnr_y'],
                f'{pix_fmt}: psnr_y equals the 10-bit value; was the input read as 10-bit?')
    # A 10-bit frame with a sample above 1023: that frame passes unscored, the others are
    # scored, and the count is reported.
    bad = fixture_copy(p.dis, t.tmpfile('bad10.yuv'), p.dis.frames)
    data = bytearray(open(p.dis.path, 'rb').read())
    size = frame_size(p.dis.w, p.dis.h, p.dis.pix_fmt)
    data[size + 100:size + 102] = b'\xff\xff'  # frame 1, luma
    open(bad.path, 'wb').write(data)
    (frames,), r = t.score(bad.input() + p.ref.input(), f'[0:v][1:v]{t.filt("feature=psnr")}[o0]')
    t.check(len(frames) == p.dis.frames, f'out-of-range sample: {len(frames)} frames output')
    t.check([bool(f['tags']) for f in frames] == [n != 1 for n in range(len(frames))],
            'out-of-range sample: frame 1 should be the only unscored frame')
    t.check('1 frames had samples above the bit depth' in r.stderr,
            f'out-of-range sample: no count at the end; stderr:\n{r.stderr[-1500:]}')


def test_adm_limits(t):
    """ADM refuses what libvmaf cannot do, with the library's message: 16-bit input and
    adm_csf_mode=1."""
    p = next(p for p in pairs(t) if p.ref.pix_fmt == 'yuv420p10le')
    dis, ref = scaled(t, p.dis, 64, 'yuv420p16le'), scaled(t, p.ref, 64, 'yuv420p16le')
    _, r = t.score(dis.input() + ref.input(), f'[0:v][1:v]{t.filt("feature=adm")}[o0]', expect_ok=False)
    t.check(r.returncode != 0, 'ADM at 16 bits: exit status 0')
    t.check(re.search(r'libvmaf_hip.*\]. *.*16', r.stderr) is not None,
            f'ADM at 16 bits: no message naming 16 bits; stderr:\n{r.stderr[-1500:]}')
    p = next(p for p in pairs(t) if p.stem == 'natural4_176x144_yuv422p__ref_vs_x264crf34')
    _, r = t.score(pair_input(p), f'[0:v][1:v]{t.filt("feature=adm:adm_csf_mode=1")}[o0]',
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


def test_frames_limit(t):
    """-frames:v 3 stops after 3 frames, all scored; nothing leaks (valgrind on the CPU path),
    also when frames are still queued when the graph is torn down (shim, looped input)."""
    p = next(p for p in pairs(t) if p.stem == 'natural4_176x144_yuv422p__ref_vs_x264crf34')
    vg = valgrind(t) or []
    (frames,), r = t.score(pair_input(p), f'[0:v][1:v]{t.filt()}[o0]', extra_out=['-frames:v', '3'],
                           wrapper=vg)
    t.check(len(frames) == 3, f'-frames:v 3: {len(frames)} frames output')
    t.check(all(len(f['tags']) >= 6 for f in frames), '-frames:v 3: a frame without scores')
    for f in frames:
        t.check(f['tags'].get('psnr_y') == '%.6f' % p.golden[f['n']]['psnr_y'], f'frame {f["n"]} psnr_y')
    # Long input, frames in flight when the output stops.
    inputs = p.dis.input(['-stream_loop', '20']) + p.ref.input(['-stream_loop', '20'])
    (frames,), r = t.score(inputs, f'[0:v][1:v]{t.filt("feature=psnr")}[o0]', extra_out=['-frames:v', '3'],
                           wrapper=vg, env={'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '2'})
    t.check(len(frames) == 3, f'-frames:v 3 with frames in flight: {len(frames)} frames output')
    eagain = shim_report(r)
    t.check(eagain[0] > 0, 'the shim held no frame back')
    if vg:
        print('valgrind: no errors, no definite or indirect leaks')


def shim_report(r):
    m = re.findall(r'inflight-shim: (\d+) (\d+)', r.stderr)
    return (int(m[-1][0]), int(m[-1][1])) if m else (0, 0)


def test_inflight(t):
    """With frames in flight (LD_PRELOAD shim: scores arrive N submissions later, or only
    when waited for), every frame is output once, in order, with the same scores, also at
    the end of the shorter input and with two instances; the drain at EOF happens in the
    activate call where framesync signalled EOF, before the status reaches the consumer."""
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    graph = f'[0:v][1:v]{t.filt("feature=psnr")}[o0]'
    (base,), _ = t.score(pair_input(p), graph)
    for delay in ('-1', '0', '2', '5', '20'):
        env = {'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': delay}
        for qd in ('0', '2'):
            g = f'[0:v][1:v]{t.filt("feature=psnr:queue_depth=" + qd)}[o0]'
            (frames,), r = t.score(pair_input(p), g, env=env)
            eagain, waits = shim_report(r)
            what = f'delay {delay}, queue_depth {qd}'
            t.check([(f['pts'], f['crc'], f['tags']) for f in frames] ==
                    [(f['pts'], f['crc'], f['tags']) for f in base],
                    f'{what}: output differs from the synchronous run')
            if delay != '0':
                t.check(eagain > 0 and waits > 0, f'{what}: shim saw {eagain} polls, {waits} waits')
    env = {'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '-1'}
    ref5 = truncated(t, p.ref, 5)
    (frames,), r = t.score(p.dis.input() + ref5.input(), graph, env=env)
    t.check([f['tags'] for f in frames] == [f['tags'] for f in base[:5]],
            'frames in flight, shorter reference: not the first 5 frames with their scores')
    vg = valgrind(t)
    if vg:
        t.score(pair_input(p), graph, env=env, wrapper=vg)
        print('valgrind with frames in flight: clean')


def test_two_instances(t):
    """Two renditions against one reference (split) in one graph: each instance scores its own."""
    p1 = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    p2 = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_mpeg2q28')
    graph = (f'[2:v]split[r1][r2];[0:v][r1]{t.filt()}[o0];[1:v][r2]{t.filt()}[o1]')
    (f1, f2), _ = t.score(p1.dis.input() + p2.dis.input() + p1.ref.input(), graph, outputs=2)
    feats = [f for f in p1.features() if f == 'psnr'] + [f for f in p1.features() if f != 'psnr']
    t.compare_golden(f1, p1, feats, 'instance 1 (x264crf38)')
    t.compare_golden(f2, p2, feats, 'instance 2 (mpeg2q28)')
    # And through the in-flight shim.
    env = {'LD_PRELOAD': t.shim, 'VMAFHIP_SHIM_DELAY': '3'}
    (g1, g2), _ = t.score(p1.dis.input() + p2.dis.input() + p1.ref.input(), graph, outputs=2, env=env)
    t.check([f['tags'] for f in g1] == [f['tags'] for f in f1] and
            [f['tags'] for f in g2] == [f['tags'] for f in f2], 'two instances with frames in flight differ')


def read_log(path, fmt):
    """A log file in libvmaf's layout -> (per-frame [{name: value}], {name: {min, max, mean,
    harmonic_mean}})."""
    if fmt == 'json':
        with open(path) as f:
            d = json.load(f)
        frames = [{k: float(v) for k, v in fr['metrics'].items()}
                  for fr in sorted(d['frames'], key=lambda fr: fr['frameNum'])]
        return frames, {k: {s: float(x) for s, x in v.items()} for k, v in d['pooled_metrics'].items()}
    if fmt == 'csv':
        with open(path, newline='') as f:
            rows = list(csv.DictReader(f))
        frames = [{k: float(v) for k, v in r.items() if k and k != 'Frame' and v not in ('', None)}
                  for r in sorted(rows, key=lambda r: int(r['Frame']))]
        return frames, None  # libvmaf's CSV has no pooled section
    root = ET.parse(path).getroot()
    frames = [{k: float(v) for k, v in fr.attrib.items() if k != 'frameNum'}
              for fr in sorted(root.iter('frame'), key=lambda e: int(e.get('frameNum')))]
    pooled = {}
    for m in root.iter('metric'):
        pooled[m.get('name')] = {k: float(v) for k, v in m.attrib.items() if k != 'name'}
    return frames, pooled


def test_logfile(t):
    """log_path in json, csv and xml: parses; per-frame values equal the metadata; pooled
    min/max/mean/harmonic mean match the per-frame values."""
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    for fmt in ('json', 'csv', 'xml'):
        path = t.tmpfile(f'log.{fmt}')
        (frames,), r = t.score(pair_input(p), f'[0:v][1:v]{t.filt(f"log_fmt={fmt}:log_path={path}")}[o0]')
        if re.search(r'Could not write the log file .*: not supported', r.stderr):
            raise Skip('the library does not write log files yet (vmafhip_write_log: -ENOTSUP)')
        if not t.check(os.path.exists(path), f'{fmt}: no log file'):
            continue
        try:
            lframes, pooled = read_log(path, fmt)
        except Exception as e:  # noqa: BLE001 - any parse error is the failure
            t.fail(f'{fmt}: log does not parse: {e}')
            continue
        t.check(len(lframes) == len(frames), f'{fmt}: {len(lframes)} frames in the log, {len(frames)} output')
        for fr, lf in zip(frames, lframes):
            for k, v in fr['tags'].items():
                t.check(k in lf and abs(lf[k] - float(v)) <= 1e-6,
                        f'{fmt}: frame {fr["n"]} {k}: log {lf.get(k)}, metadata {v}')
        if fmt == 'csv':
            continue
        for k in frames[0]['tags']:
            vals = [float(f['tags'][k]) for f in frames]
            if not t.check(pooled and k in pooled, f'{fmt}: no pooled {k}'):
                continue
            want = {'min': min(vals), 'max': max(vals), 'mean': sum(vals) / len(vals),
                    'harmonic_mean': len(vals) / sum(1 / (v + 1) for v in vals) - 1}
            for s, w in want.items():
                t.check(s in pooled[k] and abs(pooled[k][s] - w) <= 2e-6 * max(1, abs(w)),
                        f'{fmt}: pooled {k} {s} {pooled[k].get(s)}, expected {w:.6f}')


def test_timeline(t):
    """enable= (timeline): disabled frames pass through unscored."""
    p = next(p for p in pairs(t) if p.stem == 'natural1_576x324_yuv420p__ref_vs_x264crf38')
    (frames,), _ = t.score(pair_input(p), f"[0:v][1:v]{t.filt('feature=psnr')}:enable='gte(t,0.2)'[o0]")
    t.check(len(frames) == 10, f'{len(frames)} frames output')
    t.check([bool(f['tags']) for f in frames] == [f['pts'] >= 5 for f in frames],
            f'scored frames: {[f["n"] for f in frames if f["tags"]]}, expected 5..9')
    (base,), _ = t.score(p.dis.input(), '[0:v]null[o0]')
    t.check([f['crc'] for f in frames] == [f['crc'] for f in base], 'main frames were modified')


def test_errors(t):
    """Bad settings fail with a message: no feature; backend=hip without a GPU."""
    p = next(p for p in pairs(t) if p.stem == 'natural4_176x144_yuv422p__ref_vs_x264crf34')
    _, r = t.score(pair_input(p), '[0:v][1:v]libvmaf_hip=feature=0[o0]', expect_ok=False)
    t.check(r.returncode != 0 and 'feature selects no metric' in r.stderr, 'feature=0 accepted')
    devices = int(t.run([t.probe, 'devices']).stdout.strip() or 0)
    if devices == 0:
        _, r = t.score(pair_input(p), '[0:v][1:v]libvmaf_hip=backend=hip[o0]', expect_ok=False)
        t.check(r.returncode != 0, 'backend=hip without a GPU: exit status 0')
        t.check(re.search(r'libvmaf_hip.*(GPU|gpu)', r.stderr) is not None,
                f'backend=hip without a GPU: no message; stderr:\n{r.stderr[-1500:]}')
        # auto falls back to the CPU with one warning.
        (frames,), r = t.score(pair_input(p), '[0:v][1:v]libvmaf_hip=backend=auto:feature=psnr[o0]')
        t.check(len(frames) == p.dis.frames and all(f['tags'] for f in frames), 'backend=auto failed')
        t.check(r.stderr.count('scoring on the CPU') == 1, 'backend=auto: not exactly one warning')


def test_passthrough(t):
    """The output is the main input, bit for bit, with the main input's timestamps."""
    p = next(p for p in pairs(t) if p.stem == 'natural5_176x144_yuv444p__ref_vs_mjpegq20')
    (frames,), _ = t.score(pair_input(p), f'[0:v][1:v]{t.filt()}[o0]')
    (base,), _ = t.score(p.dis.input(), '[0:v]null[o0]')
    t.check([(f['pts'], f['crc']) for f in frames] == [(f['pts'], f['crc']) for f in base],
            'output frames differ from the main input')


def test_fate(t):
    """The FATE test of the patches, through FFmpeg's make in the built tree."""
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


TESTS = {
    'options': test_options,
    'golden-psnr': lambda t: golden_test(t, 'psnr'),
    'golden-float_ssim': lambda t: golden_test(t, 'float_ssim'),
    'golden-adm': lambda t: golden_test(t, 'adm'),
    'golden-all': lambda t: golden_test(t, 'all'),
    'metadata': test_metadata,
    'ffprobe': test_ffprobe,
    'lengths': test_lengths,
    'mismatch': test_mismatch,
    'bitdepth': test_bitdepth,
    'adm-limits': test_adm_limits,
    'frames-limit': test_frames_limit,
    'inflight': test_inflight,
    'two-instances': test_two_instances,
    'logfile': test_logfile,
    'timeline': test_timeline,
    'passthrough': test_passthrough,
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
    name, args = argv[1], {'probe': None, 'shim': None}
    here = os.path.dirname(os.path.abspath(__file__))
    args['source_root'] = os.path.normpath(os.path.join(here, '..', '..'))
    args['fixtures'] = os.path.join(args['source_root'], 'tests', 'fixtures')
    it = iter(argv[2:])
    for a in it:
        key = a.lstrip('-').replace('-', '_')
        if key not in ('probe', 'shim', 'fixtures', 'source_root'):
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
