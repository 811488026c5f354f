#!/usr/bin/env bash
# Self-test of the HTTPS test server: starts it, checks every route with the
# curl command line (configured the way the Swift client configures libcurl:
# custom CA file, HTTPS only on every hop, 5 redirects, 10 MiB cap), then
# checks shutdown.  Prints "N passed, N failed"; exits non-zero on any failure.
#
#   bash TestAssets/Server/selftest.sh
set -u
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/carillon-selftest.XXXXXX")
PASS=0
FAIL=0
SERVER_PID=""

cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
    exec 3>&- 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT

pass() { PASS=$((PASS + 1)); echo "ok   $1"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL $1"; }
now_ms() { date +%s%3N; }
# A process-substitution child stays a zombie until the shell reaps it: not alive.
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
hex_head() { od -An -tx1 -N "$2" "$1" 2>/dev/null | tr -d ' \n'; }
HAVE_FILE=$(command -v file >/dev/null && echo 1 || echo 0)

wait_for_file() {  # file timeout_ms
    local deadline=$(( $(now_ms) + $2 ))
    while [ ! -s "$1" ]; do
        [ "$(now_ms)" -gt "$deadline" ] && return 1
        sleep 0.01
    done
}

# Structural JPEG check (what the client's verifier must accept): SOI, a
# chain of length-prefixed segments up to SOS, entropy data, EOI at the end.
jpeg_ok() {
    python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:2] == b"\xff\xd8", "no SOI"
i, seen = 2, []
while True:
    assert d[i] == 0xFF, f"no marker at {i}"
    m = d[i + 1]
    (n,) = struct.unpack(">H", d[i + 2:i + 4])
    seen.append(m)
    i += 2 + n
    if m == 0xDA:
        break
assert 0xC0 in seen and 0xC4 in seen and 0xDB in seen, "missing SOF/DHT/DQT"
assert d[-2:] == b"\xff\xd9" and d.find(b"\xff\xd9", i) == len(d) - 2, "EOI"
EOF
}

# check NAME [rc=N] [http=N] [size=N|cl|A..B] [ctype=PREFIX] [magic=HEX]
#            [file=SUBSTR] [cenc=X] [redirs=N] [jpeg=1] [max=SECONDS] -- CURL-ARGS...
FMT='%{http_code}|%{content_type}|%header{content-length}|%header{content-encoding}|%{num_redirects}|%{num_connects}'
check() {
    local name=$1; shift
    local rc_w="" http_w="" size_w="" ctype_w="" magic_w="" file_w="" cenc_w="" redirs_w="" jpeg_w="" max=5
    while [ $# -gt 0 ]; do
        case $1 in
            --) shift; break ;;
            rc=*) rc_w=${1#*=} ;; http=*) http_w=${1#*=} ;; size=*) size_w=${1#*=} ;;
            ctype=*) ctype_w=${1#*=} ;; magic=*) magic_w=${1#*=} ;; file=*) file_w=${1#*=} ;;
            cenc=*) cenc_w=${1#*=} ;; redirs=*) redirs_w=${1#*=} ;; jpeg=*) jpeg_w=1 ;;
            max=*) max=${1#*=} ;;
            *) echo "bad check arg $1"; exit 2 ;;
        esac
        shift
    done
    local out="$T/body" w rc size errs=""
    rm -f "$out"
    w=$(curl -s --cacert "$CA" --proto =https --proto-redir =https -L --max-redirs 5 \
             --max-time "$max" --max-filesize 10485760 -o "$out" -w "$FMT" "$@" 2>"$T/curl.err")
    rc=$?
    IFS='|' read -r http ctype clen cenc redirs conns <<<"$w"
    size=0; [ -f "$out" ] && size=$(stat -c %s "$out")
    [ -n "$rc_w" ] && [ "$rc" != "$rc_w" ] && errs+=" curl-exit=$rc(want $rc_w)"
    [ -n "$http_w" ] && [ "$http" != "$http_w" ] && errs+=" http=$http(want $http_w)"
    case $size_w in
        "") ;;
        cl) [ "$size" = "$clen" ] || errs+=" size=$size(want Content-Length $clen)" ;;
        *..*) { [ "$size" -ge "${size_w%..*}" ] && [ "$size" -le "${size_w#*..}" ]; } \
                  || errs+=" size=$size(want $size_w)" ;;
        *) [ "$size" = "$size_w" ] || errs+=" size=$size(want $size_w)" ;;
    esac
    [ -n "$ctype_w" ] && [[ "$ctype" != "$ctype_w"* ]] && errs+=" content-type=$ctype(want $ctype_w)"
    [ -n "$cenc_w" ] && [ "$cenc" != "$cenc_w" ] && errs+=" content-encoding=$cenc(want $cenc_w)"
    [ -n "$redirs_w" ] && [ "$redirs" != "$redirs_w" ] && errs+=" redirects=$redirs(want $redirs_w)"
    if [ -n "$magic_w" ]; then
        local got; got=$(hex_head "$out" $(( ${#magic_w} / 2 )))
        [ "$got" = "$magic_w" ] || errs+=" magic=$got(want $magic_w)"
    fi
    if [ -n "$file_w" ] && [ "$HAVE_FILE" = 1 ]; then
        local ft; ft=$(file -b "$out")
        [[ "$ft" == *"$file_w"* ]] || errs+=" file='$ft'(want *$file_w*)"
    fi
    if [ -n "$jpeg_w" ] && ! jpeg_ok "$out" 2>"$T/jpeg.err"; then
        errs+=" jpeg-structure: $(tail -1 "$T/jpeg.err")"
    fi
    if [ -z "$errs" ]; then pass "$name"; else fail "$name:$errs"; fi
}

stats() { curl -s --cacert "$CA" "$BASE/stats" | python3 -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))" "$1"; }
reset_stats() { curl -s --cacert "$CA" "$BASE/stats/reset" >/dev/null; }
expect_eq() {  # name actual expected
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2' want '$3'"; fi
}

# --- start --------------------------------------------------------------------
# stdin is a pipe held open on fd 3: if this script dies, the server sees EOF.
START=$(now_ms)
exec 3> >(exec python3 "$DIR/server.py" --exit-on-stdin-eof --ready-file "$T/ready.json" \
              >"$T/stdout" 2>"$T/stderr")
SERVER_PID=$!
if ! wait_for_file "$T/ready.json" 5000; then
    echo "server did not start:"; cat "$T/stderr"; exit 1
fi
STARTUP_MS=$(( $(now_ms) - START ))
R=$T/ready.json
j() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$R" "$1"; }
CA=$(j ca_file); BASE=$(j base_url); PORT=$(j port)
UNKNOWN=$(j unknown_ca_port); WRONG=$(j wrong_host_port)
STALL=$(j handshake_stall_port); CLOSED=$(j closed_port)
SERVER_PID=$(j pid)
echo "server pid $SERVER_PID at $BASE, ready in ${STARTUP_MS} ms"
[ "$STARTUP_MS" -lt 2000 ] && pass "startup ${STARTUP_MS} ms < 2000 ms" || fail "startup ${STARTUP_MS} ms"
expect_eq "stdout ready line = ready file" "$(head -1 "$T/stdout")" "$(cat "$R")"
expect_eq "listens on 127.0.0.1 only" \
    "$(ss -Hltn 2>/dev/null | awk '{print $4}' | grep -E ":($PORT|$UNKNOWN|$WRONG|$STALL)\$" | grep -vc '^127\.0\.0\.1:')" "0"

PNG=89504e470d0a1a0a; JPG=ffd8ff; GIF=474946383961

# --- images ------------------------------------------------------------------------
check img/jpeg            rc=0 http=200 size=cl ctype=image/jpeg magic=$JPG file="JPEG image data" jpeg=1 -- "$BASE/img/jpeg"
check img/png             rc=0 http=200 size=cl ctype=image/png magic=$PNG file="PNG image data" -- "$BASE/img/png"
check img/gif             rc=0 http=200 size=cl ctype=image/gif magic=$GIF file="GIF image data" -- "$BASE/img/gif"
check img/gif-animated    rc=0 http=200 size=cl ctype=image/gif magic=$GIF file="GIF image data" -- "$BASE/img/gif-animated"
expect_eq "img/gif-animated has NETSCAPE2.0 + 2 GCEs" \
    "$(python3 -c "import sys; d=open(sys.argv[1],'rb').read(); print(b'NETSCAPE2.0' in d and d.count(b'\x21\xf9\x04') >= 2)" "$T/body")" True
# The images are the fixtures of TestAssets/Images/, byte for byte (the PNG padded: see below).
IMAGES_DIR="$DIR/../Images"
same_as() {  # route fixture
    curl -s --cacert "$CA" -o "$T/same" "$BASE/$1"
    expect_eq "$1 is Images/$2" "$(cmp -s "$T/same" "$IMAGES_DIR/$2" && echo same)" same
}
same_as img/jpeg sample.jpg
same_as img/gif static.gif
same_as img/gif-animated animated.gif
same_as bad/webp sample.webp
same_as bad/heic sample.heic
same_as bad/svg sample.svg
same_as bad/html notfound.html
curl -s --cacert "$CA" -o "$T/same" "$BASE/img/png"
expect_eq "img/png is Images/sample.png padded before IEND to 11352 bytes" \
    "$(python3 -c "import sys; a=open(sys.argv[1],'rb').read(); b=open(sys.argv[2],'rb').read(); print(len(a), a[:len(b)-12] == b[:-12], a[-12:] == b[-12:], a[len(b)-8:len(b)-4])" "$T/same" "$IMAGES_DIR/sample.png")" \
    "11352 True True b'tEXt'"
check img/jpeg-no-eoi     rc=0 http=200 size=cl ctype=image/jpeg magic=$JPG -- "$BASE/img/jpeg-no-eoi"
check img/png-as-jpeg     rc=0 http=200 size=cl ctype=image/jpeg magic=$PNG -- "$BASE/img/png-as-jpeg"
check img/html-as-png     rc=0 http=200 size=cl ctype=image/png magic=3c21 file=HTML -- "$BASE/img/html-as-png"
check img/png-as-octet    rc=0 http=200 size=cl ctype=application/octet-stream magic=$PNG -- "$BASE/img/png-as-octet"
check img/looks-like.jpg  rc=0 http=200 size=cl ctype=image/png magic=$PNG -- "$BASE/img/looks-like.jpg?x=1"

# --- unsupported / broken bodies -------------------------------------------------------
check bad/webp            rc=0 http=200 size=cl ctype=image/webp magic=52494646 file="Web/P" -- "$BASE/bad/webp"
check bad/heic            rc=0 http=200 size=cl ctype=image/heic file=HEIF -- "$BASE/bad/heic"
check bad/svg             rc=0 http=200 size=cl ctype=image/svg+xml file=SVG -- "$BASE/bad/svg"
check bad/html            rc=0 http=200 size=cl ctype=text/html file=HTML -- "$BASE/bad/html"
check bad/text            rc=0 http=200 size=cl ctype=text/plain file=text -- "$BASE/bad/text"
check bad/truncated-png   rc=0 http=200 size=40 magic=$PNG -- "$BASE/bad/truncated-png"
check bad/truncated-body  rc=18 http=200 size=1000 magic=$PNG -- "$BASE/bad/truncated-body"
check bad/empty           rc=0 http=200 size=0 -- "$BASE/bad/empty"

# --- framing errors (curl's view; the client's reasons are in TestAssets/Server/README.md) -------------
check img/tiny-png        rc=0 http=200 size=69 magic=$PNG -- "$BASE/img/tiny-png"
check bad/http09          rc=1 size=0 -- "$BASE/bad/http09"
check bad/status-line     rc=1 size=0 -- "$BASE/bad/status-line"
check bad/content-length-conflict rc=0 http=200 -- "$BASE/bad/content-length-conflict"
check bad/content-length-repeated rc=0 http=200 size=11352 magic=$PNG -- "$BASE/bad/content-length-repeated"
check bad/chunking        rc=56 http=200 -- "$BASE/bad/chunking"
check bad/status-404-large rc=63 size=0 -- "$BASE/bad/status-404-large"

# --- size and framing ----------------------------------------------------------------
check size/cap            rc=0 http=200 size=10485760 file="JPEG image data" jpeg=1 -- "$BASE/size/cap"
check size/cap-plus-1     rc=63 size=0 -- "$BASE/size/cap-plus-1"
check size/cap-chunked    rc=0 http=200 size=10485760 jpeg=1 -- "$BASE/size/cap-chunked"
# curl 7.88 does not apply --max-filesize to chunked bodies (NOTES-libcurl.md):
# the body arrives whole; the client's write callback must cut it.
check size/cap-plus-1-chunked rc=0 http=200 size=10485761 jpeg=1 -- "$BASE/size/cap-plus-1-chunked"
check "size/n?bytes=1000"  rc=0 http=200 size=1000 jpeg=1 -- "$BASE/size/n?bytes=1000"
check "size/n (default)"   rc=0 http=200 size=cl jpeg=1 -- "$BASE/size/n"
check "size/n?bytes=70000" rc=0 http=200 size=70000 jpeg=1 -- "$BASE/size/n?bytes=70000"
check "size/n-chunked?bytes=200000" rc=0 http=200 size=200000 jpeg=1 -- "$BASE/size/n-chunked?bytes=200000"
check "size/eof?bytes=50000" rc=0 http=200 size=50000 jpeg=1 -- "$BASE/size/eof?bytes=50000"
check "size/n?bytes=abc -> 400" rc=0 http=400 -- "$BASE/size/n?bytes=abc"
check "size/png?bytes=10485760" rc=0 http=200 size=10485760 ctype=image/png magic=$PNG file="PNG image data" -- "$BASE/size/png?bytes=10485760"
check "size/png?bytes=5 -> 400" rc=0 http=400 -- "$BASE/size/png?bytes=5"
# 1 GiB chunked: read the first MiB, hang up; the server must stop streaming.
reset_stats
curl -s --cacert "$CA" --proto =https --max-time 10 "$BASE/size/gigabyte-chunked" 2>/dev/null \
    | head -c 1048576 >"$T/body"
rcs=("${PIPESTATUS[@]}")
expect_eq "size/gigabyte-chunked: curl write error after 1 MiB" "${rcs[0]}:$(stat -c %s "$T/body"):$(hex_head "$T/body" 3)" "23:1048576:$JPG"
sleep 0.3
expect_eq "size/gigabyte-chunked: server stopped streaming" "$(stats "d['active_requests']")" 0

# --- content encoding ---------------------------------------------------------------
check enc/gzip            rc=0 http=200 size=cl cenc=gzip magic=1f8b -- "$BASE/enc/gzip"
expect_eq "enc/gzip body is a gzipped PNG" "$(gzip -dc <"$T/body" | od -An -tx1 -N8 | tr -d ' \n')" $PNG
check enc/br              rc=0 http=200 size=cl cenc=br -- "$BASE/enc/br"
expect_eq "enc/br body is a brotli'd PNG" "$(brotli -dc <"$T/body" | od -An -tx1 -N8 | tr -d ' \n')" $PNG
check enc/identity-then-gzip rc=0 http=200 magic=1f8b -- "$BASE/enc/identity-then-gzip"
check enc/te-gzip-chunked rc=0 http=200 -- "$BASE/enc/te-gzip-chunked"
check enc/identity        rc=0 http=200 size=cl cenc=identity magic=$PNG -- "$BASE/enc/identity"

# --- redirects ---------------------------------------------------------------------------
check redirect/relative   rc=0 http=200 redirs=1 magic=$PNG -- "$BASE/redirect/relative"
check redirect/absolute   rc=0 http=200 redirs=1 magic=$PNG -- "$BASE/redirect/absolute"
reset_stats
check redirect/to-http    rc=1 -- "$BASE/redirect/to-http"
expect_eq "redirect/to-http: refused hop never reached the server" \
    "$(stats "(d['connections'], d['requests'])")" "(1, {'/redirect/to-http': 1})"
check redirect/to-file    rc=1 -- "$BASE/redirect/to-file"
check redirect/loop       rc=47 -- "$BASE/redirect/loop"
check redirect/hops/5     rc=0 http=200 redirs=5 magic=$PNG -- "$BASE/redirect/hops/5"
check redirect/hops/6     rc=47 -- "$BASE/redirect/hops/6"
check redirect/307        rc=0 http=200 redirs=1 magic=$PNG -- "$BASE/redirect/307"
check redirect/308        rc=0 http=200 redirs=1 magic=$PNG -- "$BASE/redirect/308"

# The client follows redirects itself (SPEC §2); curl -L shows what a naive client makes of these.
check "redirect/to?status=302&location=/img/png" rc=0 http=200 redirs=1 magic=$PNG -- "$BASE/redirect/to?status=302&location=/img/png"
check "redirect/to?status=303 (no Location)" rc=0 http=303 redirs=0 -- "$BASE/redirect/to?status=303"
check redirect/endless-body rc=28 max=2 -- "$BASE/redirect/endless-body"
check redirect/large-announced rc=63 -- "$BASE/redirect/large-announced"
check "redirect/slow/1?delay=0.1 ends in a stall" rc=28 max=2 -- "$BASE/redirect/slow/1?delay=0.1"

# --- statuses ------------------------------------------------------------------------------
check status/204          rc=0 http=204 size=0 -- "$BASE/status/204"
check status/404          rc=0 http=404 size=cl ctype=text/html -- "$BASE/status/404"
check status/500          rc=0 http=500 size=cl ctype=text/html -- "$BASE/status/500"
check status/418          rc=0 http=418 size=cl -- "$BASE/status/418"
check status/200          rc=0 http=200 size=cl ctype=text/html -- "$BASE/status/200"
check "unknown path 404"  rc=0 http=404 -- "$BASE/no/such/route"

# --- stalls ---------------------------------------------------------------------------------
check stall/headers       rc=28 http=000 size=0 max=2 -- "$BASE/stall/headers"
check "stall/headers?seconds=1 then close" rc=52 size=0 -- "$BASE/stall/headers?seconds=1"
check stall/body          rc=28 http=200 size=100 magic=$PNG max=2 -- "$BASE/stall/body"
check trickle             rc=28 http=200 size=2..4 magic=89 max=3 -- "$BASE/trickle"
check "trickle?bytes=89&interval=0.01" rc=0 http=200 size=89 magic=$PNG file="PNG image data" -- "$BASE/trickle?bytes=89&interval=0.01"
sleep 0.3
expect_eq "stalls end when the client hangs up" "$(stats "d['active_requests']")" 0

# --- TLS and connection failures -----------------------------------------------------------------
reset_stats
check "unknown CA port"   rc=60 -- "https://127.0.0.1:$UNKNOWN/img/png"
sleep 0.2
expect_eq "unknown CA: handshake refused, no request" \
    "$(stats "(d['listeners']['unknown_ca']['connections'], d['listeners']['unknown_ca']['tls_failures'], d['listeners']['unknown_ca']['total_requests'])")" "(1, 1, 0)"
check "unknown CA port with its own CA (-k)" rc=0 http=200 magic=$PNG -- -k "https://127.0.0.1:$UNKNOWN/img/png"
check "wrong host port"   rc=60 -- "https://127.0.0.1:$WRONG/img/png"
check "wrong host port as wrong.example" rc=0 http=200 magic=$PNG -- \
    --resolve "wrong.example:$WRONG:127.0.0.1" "https://wrong.example:$WRONG/img/png"
check "handshake stall port" rc=28 max=2 -- "https://127.0.0.1:$STALL/img/png"
check "closed port"       rc=7 -- "https://127.0.0.1:$CLOSED/img/png"
check "localhost name"    rc=0 http=200 magic=$PNG -- "https://localhost:$PORT/img/png"
check "plain http on TLS port" rc=1 -- "http://127.0.0.1:$PORT/img/png"

# --- App Transport Security listeners (curl's view: it applies none of ATS's rules by itself) ------------------
ATS_CIPHERS="ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA"
ats() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['ats_ports'][sys.argv[2]])" "$R" "$1"; }
for name in ats_cn_only ats_no_eku ats_ten_years ats_rsa_kex ats_ffdhe ats_tls12_ecdhe ats_tls13 ats_rsa2048 ats_intermediate; do
    check "$name serves the PNG" rc=0 http=200 magic=$PNG -- "https://127.0.0.1:$(ats $name)/img/png"
done
check "ats_rsa_kex: no ECDHE suite" rc=35 -- --tlsv1.2 --ciphers "$ATS_CIPHERS" "https://127.0.0.1:$(ats ats_rsa_kex)/img/png"
check "ats_ffdhe: no ECDHE suite" rc=35 -- --tlsv1.2 --ciphers "$ATS_CIPHERS" "https://127.0.0.1:$(ats ats_ffdhe)/img/png"
check "ats_ffdhe: no RSA key exchange either" rc=35 -- --tlsv1.2 --ciphers "AES128-GCM-SHA256:AES256-GCM-SHA384" "https://127.0.0.1:$(ats ats_ffdhe)/img/png"
check "ats_rsa_kex: RSA key exchange" rc=0 http=200 -- --tlsv1.2 --ciphers "AES128-GCM-SHA256" "https://127.0.0.1:$(ats ats_rsa_kex)/img/png"
check "ats_tls12_ecdhe: ECDHE under TLS 1.2" rc=0 http=200 -- --tlsv1.2 --ciphers "$ATS_CIPHERS" "https://127.0.0.1:$(ats ats_tls12_ecdhe)/img/png"
check "ats_tls12_ecdhe: no TLS 1.3" rc=35 -- --tlsv1.3 "https://127.0.0.1:$(ats ats_tls12_ecdhe)/img/png"
check "ats_tls13: TLS 1.3 only" rc=35 -- --tls-max 1.2 "https://127.0.0.1:$(ats ats_tls13)/img/png"
check "ats_rsa2048: ECDHE-RSA" rc=0 http=200 -- --tlsv1.2 --ciphers "$ATS_CIPHERS" "https://127.0.0.1:$(ats ats_rsa2048)/img/png"
check "ats_tls11: no TLS 1.2" rc=35 -- --tlsv1.2 "https://127.0.0.1:$(ats ats_tls11)/img/png"
check "ats_tls11: TLS 1.1 with ECDHE" rc=0 http=200 magic=$PNG -- --tlsv1.1 --ciphers "ECDHE-ECDSA-AES128-SHA:@SECLEVEL=0" "https://127.0.0.1:$(ats ats_tls11)/img/png"
cert_text() { openssl s_client -connect "127.0.0.1:$(ats "$1")" -showcerts </dev/null 2>/dev/null | openssl x509 -noout -text 2>/dev/null; }
expect_eq "ats_cn_only: leaf has no subjectAltName" "$(cert_text ats_cn_only | grep -c 'Subject Alternative Name')" 0
expect_eq "ats_no_eku: leaf has no extendedKeyUsage" "$(cert_text ats_no_eku | grep -c 'Extended Key Usage')" 0
expect_eq "ats_ten_years: leaf valid 3650 days" "$(openssl s_client -connect "127.0.0.1:$(ats ats_ten_years)" </dev/null 2>/dev/null \
    | openssl x509 -noout -startdate -enddate | python3 -c "import sys,datetime as d; a,b=[d.datetime.strptime(l.split('=',1)[1].strip(),'%b %d %H:%M:%S %Y %Z') for l in sys.stdin]; print((b-a).days)")" 3650
expect_eq "ats_intermediate: sends leaf and intermediate" "$(openssl s_client -connect "127.0.0.1:$(ats ats_intermediate)" -showcerts </dev/null 2>/dev/null | grep -c 'BEGIN CERTIFICATE')" 2

# --- introspection ------------------------------------------------------------------------------
check echo/headers        rc=0 http=200 ctype=application/json -- -H "X-Test: 1" "$BASE/echo/headers"
expect_eq "echo/headers: no Accept-Encoding, custom header seen" \
    "$(python3 -c "import json,sys; h=json.load(open(sys.argv[1]))['headers']; print('accept-encoding' in h, h.get('x-test'))" "$T/body")" "False 1"
reset_stats
curl -s --cacert "$CA" -o /dev/null -o /dev/null "$BASE/img/png" "$BASE/img/gif"
expect_eq "keep-alive: two requests, one connection" \
    "$(stats "(d['connections'], d['requests'])")" "(1, {'/img/gif': 1, '/img/png': 1})"
hdrs=$(curl -s --cacert "$CA" -I "$BASE/img/png" | tr -d '\r')
expect_eq "HEAD /img/png" "$(grep -ci '^content-length: [0-9]' <<<"$hdrs"):$(head -1 <<<"$hdrs")" "1:HTTP/1.1 200 OK"

# --- stdin EOF and --state-dir (a second server) --------------------------------------------------------
S2=$(now_ms)
(sleep 1) | python3 "$DIR/server.py" --exit-on-stdin-eof --state-dir "$T/state2" \
    --ready-file "$T/ready2.json" >/dev/null 2>&1 &
wait $!
E2=$(( $(now_ms) - S2 ))
[ "$E2" -lt 2500 ] && pass "exit on stdin EOF (${E2} ms incl. 1 s pipe)" || fail "exit on stdin EOF took ${E2} ms"
expect_eq "--state-dir kept, ready file removed" "$([ -f "$T/state2/ca.pem" ] && echo y):$([ -e "$T/ready2.json" ] && echo y)" "y:"

# --- shutdown while stalls are in progress ----------------------------------------------------------
curl -s --cacert "$CA" -o /dev/null "$BASE/stall/headers" &
curl -s --cacert "$CA" -o /dev/null "$BASE/stall/body" &
curl -s --cacert "$CA" -o /dev/null "$BASE/trickle" &
curl -s --cacert "$CA" -o /dev/null --limit-rate 200k "$BASE/size/gigabyte-chunked" &
curl -s --cacert "$CA" -o /dev/null "https://127.0.0.1:$STALL/" &
sleep 0.5
expect_eq "stalls in progress before SIGTERM" "$(stats "(d['active_requests'], d['listeners']['handshake_stall']['active_requests'])")" "(4, 1)"
CA_DIR=$(dirname "$CA")
T0=$(now_ms)
kill -TERM "$SERVER_PID"
while alive "$SERVER_PID"; do
    [ $(( $(now_ms) - T0 )) -gt 5000 ] && break
    sleep 0.01
done
STOP_MS=$(( $(now_ms) - T0 ))
[ "$STOP_MS" -lt 1000 ] && pass "SIGTERM exit in ${STOP_MS} ms (< 1000)" || fail "SIGTERM exit took ${STOP_MS} ms"
SERVER_PID=""
expect_eq "temp dir and ready file removed" "$([ -e "$CA_DIR" ] && echo dir)$([ -e "$R" ] && echo ready)" ""
wait 2>/dev/null

echo
echo "startup ${STARTUP_MS} ms, shutdown ${STOP_MS} ms"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
