# FFmpeg sources for tools/build-ffmpeg, tools/make-patches and tools/check-patches
# (sourced by them, bash; not run on its own).
#
# ffmpeg_source VERSION sets
#   src_kind   tree or tarball
#   tarball    the tarball (src_kind=tarball)
#   src_id     an identifier of these exact sources (kind, path, checksum)
#   release    the FFmpeg release of the sources (RELEASE)
# from $FFMPEG_SRC (an unpacked tree or a tarball) if set; else the newest
# VERSION.x in Debian's source packages (7.1 from Debian 13 "trixie", 8.1 and
# 9.0 from unstable "sid"), pristine upstream (the orig tarball only), kept in
# build/ffmpeg-downloads/. A deb-src entry for that suite is added under
# /etc/apt/sources.list.d/ when apt knows no such version yet (needs root).
#
# ffmpeg_extract DIR FILE... copies those files of the sources into DIR.
# ffmpeg_unpack DIR unpacks the whole source tree into DIR.
#
# The caller defines die() and note() and sets $root (the vmafhip tree).

# Patch base of each series (the releases the patches are made against).
declare -A pinned=([7.1]=7.1.5 [8.1]=8.1.2 [9.0]=9.0.2)
declare -A suite=([7.1]=trixie [8.1]=sid [9.0]=sid)
declare -A suite_name=([trixie]="Debian 13 (trixie)" [sid]="Debian unstable (sid)")

# Prints the newest "epoch:version" of source package ffmpeg whose upstream
# version is $1.x, or nothing.
newest_debian_version() {
    local best= v
    for v in $(apt-cache showsrc ffmpeg 2>/dev/null | sed -n 's/^Version: //p'); do
        case "${v#*:}" in
        "$1".[0-9]*|"$1"-*|"$1") ;;
        *) continue ;;
        esac
        if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
            best=$v
        fi
    done
    echo "$best"
}

add_deb_src() { # version suite
    local file="/etc/apt/sources.list.d/vmafhip-ffmpeg-src-$2.sources"
    if [ -f "$file" ]; then
        note "refreshing the source index of $file"
    else
        [ "$(id -u)" = 0 ] ||
            die "apt knows no FFmpeg $1.x source package and adding the deb-src entry for" \
                "${suite_name[$2]} needs root: run this as root, or set FFMPEG_SRC to an FFmpeg $1.x tarball or tree"
        cat > "$file" <<EOF
# Added by vmafhip tools/build-ffmpeg: source packages only (FFmpeg sources).
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $2
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        note "added the deb-src entry $file (${suite_name[$2]} sources)"
    fi
    apt-get update -q -o Dir::Etc::sourcelist="$file" -o Dir::Etc::sourceparts=- \
        -o APT::Get::List-Cleanup=0 >/dev/null ||
        die "apt-get update of $file failed"
}

fetch_debian() { # version; sets tarball, src_id
    local version=$1 deb_version uri file size hash line downloads="$root/build/ffmpeg-downloads"
    command -v apt-cache >/dev/null 2>&1 || die "no FFMPEG_SRC and no apt-cache: set FFMPEG_SRC to an FFmpeg $version.x tarball"
    deb_version=$(newest_debian_version "$version")
    if [ -z "$deb_version" ]; then
        add_deb_src "$version" "${suite[$version]}"
        deb_version=$(newest_debian_version "$version")
    fi
    if [ -z "$deb_version" ]; then
        die "no FFmpeg $version.x source package in ${suite_name[${suite[$version]}]} now" \
            "(available: $(apt-cache showsrc ffmpeg 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' '| sed 's/ $//'));" \
            "set FFMPEG_SRC to an FFmpeg $version.x tarball or tree (the patches were made for ${pinned[$version]})"
    fi
    line=$(apt-get source --print-uris -qq "ffmpeg=$deb_version" 2>/dev/null | grep "\.orig\.tar\.[a-z0-9]*' " | head -n 1) ||
        die "apt-get source --print-uris ffmpeg=$deb_version gave no orig tarball"
    read -r uri file size hash <<< "$line"
    uri=${uri//\'/}
    mkdir -p "$downloads"
    tarball="$downloads/$file"
    if [ -f "$tarball" ] && [ "SHA256:$(sha256sum "$tarball" | cut -d' ' -f1)" = "$hash" ]; then
        note "FFmpeg source package $deb_version: $tarball"
    else
        note "FFmpeg source package $deb_version (orig tarball only: pristine upstream): downloading $uri"
        rm -f "$tarball"
        /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$uri" "$tarball" "$hash" >/dev/null ||
            die "download of $uri failed"
    fi
    src_id="debian:$deb_version:$hash"
}

ffmpeg_source() { # version
    local version=$1
    src_kind= tarball= src_id= release=
    if [ -n "${FFMPEG_SRC:-}" ]; then
        if [ -d "$FFMPEG_SRC" ]; then
            [ -x "$FFMPEG_SRC/configure" ] && [ -d "$FFMPEG_SRC/libavfilter" ] ||
                die "FFMPEG_SRC=$FFMPEG_SRC is a folder but not an FFmpeg source tree"
            src_kind=tree
            src_id="tree:$(cd "$FFMPEG_SRC" && pwd):$(cat "$FFMPEG_SRC/RELEASE" 2>/dev/null)"
            release=$(cat "$FFMPEG_SRC/RELEASE" 2>/dev/null || cat "$FFMPEG_SRC/VERSION" 2>/dev/null || true)
        elif [ -f "$FFMPEG_SRC" ]; then
            src_kind=tarball tarball=$(cd "$(dirname "$FFMPEG_SRC")" && pwd)/$(basename "$FFMPEG_SRC")
            src_id="tarball:$tarball:$(sha256sum "$tarball" | cut -d' ' -f1)"
        else
            die "FFMPEG_SRC=$FFMPEG_SRC does not exist"
        fi
    else
        src_kind=tarball
        fetch_debian "$version"
    fi
    if [ "$src_kind" = tarball ]; then
        release=$(tar -xOf "$tarball" --wildcards --no-anchored RELEASE 2>/dev/null | head -n 1 || true)
    fi
    case "$release" in
    "$version"|"$version".*|"$version"-*) ;;
    *) die "the FFmpeg sources${FFMPEG_SRC:+ in $FFMPEG_SRC} are version '${release:-unknown}', not $version.x" ;;
    esac
}

ffmpeg_extract() { # dir file...
    local dir=$1 top f
    shift
    mkdir -p "$dir"
    if [ "$src_kind" = tree ]; then
        for f in "$@"; do
            mkdir -p "$dir/$(dirname "$f")"
            cp "$FFMPEG_SRC/$f" "$dir/$f" || die "$f is not in $FFMPEG_SRC"
        done
    else
        top=$(tar -tf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1 || true)
        tar -C "$dir" --strip-components=1 -xf "$tarball" "${@/#/$top/}" ||
            die "could not extract $* from $tarball"
    fi
}

ffmpeg_unpack() { # dir
    mkdir -p "$1"
    if [ "$src_kind" = tree ]; then
        note "copying $FFMPEG_SRC"
        tar -C "$FFMPEG_SRC" --exclude=.git -cf - . | tar -C "$1" -xf -
    else
        note "unpacking $(basename "$tarball")"
        tar -C "$1" --strip-components=1 -xf "$tarball"
    fi
}
