/** The network plan of a sandbox: which namespace, and the model-endpoint relay. Pure. */
import type { NetworkPolicy } from "./types.js";

/** The relay's unix socket, in the run root (bound into bwrap at its host path; mounted in docker). */
export const RELAY_SOCKET_NAME = ".skillbench-model.sock";
/** Inner relay port when the endpoint's own port is privileged (< 1024) or absent. */
const FALLBACK_INNER_PORT = 41_080;

export interface RelayTarget {
  /** Where the host side of the relay connects (the real endpoint). */
  host: string;
  port: number;
  /** The endpoint's origin as `URL.origin` gives it, e.g. `http://127.0.0.1:4100`. */
  origin: string;
  /** The loopback port the inner relay listens on inside the sandbox's network namespace. */
  innerPort: number;
}

export interface NetworkPlan {
  /** `host`: share the host's network; `none`: loopback only, nothing relayed; `relay`: loopback only + the model relay. */
  mode: "host" | "none" | "relay";
  relay: RelayTarget | null;
  /** Why `model-only` fell back to the host network (null otherwise). */
  fallback: string | null;
}

/** The relay target of a plain `http://` endpoint; null for https, unset or unparsable endpoints. */
export function relayTarget(endpoint: string | undefined): RelayTarget | null {
  if (!endpoint) return null;
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" || !u.hostname) return null;
  const port = u.port ? Number(u.port) : 80;
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port, origin: u.origin, innerPort: port >= 1024 ? port : FALLBACK_INNER_PORT };
}

/**
 * The in-process server the relay hands its connections to: the local model server of
 * SandboxOptions when the relayed endpoint is that server (same origin), else none.
 */
export function relayServer<S>(
  local: { url: string; accept(socket: S): void } | undefined,
  target: RelayTarget,
): ((socket: S) => void) | undefined {
  if (!local || new URL(local.url).origin !== target.origin) return undefined;
  return (socket) => local.accept(socket);
}

/**
 * `model-only` (the default) relays a plain-http endpoint and cuts everything else; an https or
 * unknown endpoint cannot be relayed (the agent checks its certificate against the host name), so
 * it falls back to the host network and says why. `host` and `none` are taken as asked.
 */
export function planNetwork(requested: NetworkPolicy, endpoint: string | undefined): NetworkPlan {
  if (requested === "host") return { mode: "host", relay: null, fallback: null };
  if (requested === "none") return { mode: "none", relay: null, fallback: null };
  const relay = relayTarget(endpoint);
  if (relay) return { mode: "relay", relay, fallback: null };
  const what = endpoint
    ? `the model endpoint ${redactUrl(endpoint)} is not a plain http:// URL`
    : "no model endpoint URL is known (the agent uses its default https endpoint)";
  return {
    mode: "host",
    relay: null,
    fallback: `${what}, which the loopback relay cannot forward`,
  };
}

/** The inner relay's URL for an endpoint URL, keeping path and query verbatim. */
function innerOrigin(relay: RelayTarget): string {
  return `http://127.0.0.1:${relay.innerPort}`;
}

/**
 * Every variable whose value is a URL on the relayed endpoint's origin (ANTHROPIC_BASE_URL and
 * any SKILLBENCH_/ANTHROPIC_ endpoint variable) is rewritten to the inner relay, path and query
 * kept verbatim. `changed` says whether any was (only such commands need the relay).
 */
export function rewriteEndpointEnv(
  env: Record<string, string>,
  relay: RelayTarget,
): { env: Record<string, string>; changed: boolean } {
  const out: Record<string, string> = {};
  let changed = false;
  for (const [k, v] of Object.entries(env)) {
    const m = /^https?:\/\/[^/?#]*/i.exec(v);
    let origin: string | null = null;
    if (m) {
      try {
        origin = new URL(v).origin;
      } catch {
        origin = null;
      }
    }
    if (m && origin === relay.origin) {
      out[k] = `${innerOrigin(relay)}${v.slice(m[0].length)}`;
      changed = true;
    } else {
      out[k] = v;
    }
  }
  return { env: out, changed };
}

/** A URL without user:password. */
export function redactUrl(u: string): string {
  return u.replace(/\/\/[^/@]*@/, "//");
}

/**
 * The relay that runs inside the sandbox, as a `node -e` program (CommonJS; no file needed).
 * argv: `<socket path> <port> [cmd args...]`. It listens on 127.0.0.1:<port> and pipes every
 * connection to the unix socket (connected by its name from the socket's folder, so long paths
 * work). Without a command it serves until killed; with one it starts the command once listening
 * (stdio inherited, cwd and env its own), forwards SIGTERM/SIGINT/SIGHUP to it, and exits with
 * its status (128 + signal number when it was killed).
 */
export const INNER_RELAY_SOURCE = `
const net = require('net'), path = require('path'), os = require('os'), cp = require('child_process');
const [sock, portText, ...cmd] = process.argv.slice(1);
const dir = path.dirname(sock), name = path.basename(sock);
const cwd = process.cwd();
process.chdir(dir);
const server = net.createServer({ noDelay: true }, (c) => {
  const u = net.connect({ path: name });
  const end = () => { c.destroy(); u.destroy(); };
  c.on('error', end); u.on('error', end); c.on('close', end); u.on('close', end);
  c.pipe(u); u.pipe(c);
});
server.on('error', (e) => { process.stderr.write('skillbench relay: ' + e.message + '\\n'); process.exit(125); });
server.listen(Number(portText), '127.0.0.1', () => {
  if (cmd.length === 0) return;
  server.unref();
  const child = cp.spawn(cmd[0], cmd.slice(1), { stdio: 'inherit', cwd });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write('skillbench relay: cannot start ' + cmd[0] + ': ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, sig) => process.exit(code !== null ? code : 128 + (os.constants.signals[sig] || 0)));
});
`;

/**
 * A `node -e` probe, argv `<port> <socket path>`: first connects to the relay's unix socket itself
 * (as the sandbox's user: a socket it may not open is the usual cause of a dead relay), then waits
 * until 127.0.0.1:<port> accepts a connection. Exits 0 when both work; otherwise prints why on
 * stderr and exits 1 (socket) or 2 (port, after ~10 s).
 */
export const INNER_PROBE_SOURCE = `
const net = require('net'); const port = Number(process.argv[1]); const sock = process.argv[2]; const until = Date.now() + 10000;
const fail = (code, why) => { process.stderr.write(why + '\\n'); process.exit(code); };
const tryPort = () => { const s = net.connect(port, '127.0.0.1'); s.on('connect', () => { s.destroy(); process.exit(0); });
  s.on('error', (e) => { if (Date.now() > until) fail(2, 'nothing listens on 127.0.0.1:' + port + ' inside the sandbox after 10 s (the inner relay did not start): ' + e.message); else setTimeout(tryPort, 25); }); };
if (!sock) tryPort();
else { const u = net.connect({ path: sock }); u.on('connect', () => { u.destroy(); tryPort(); });
  u.on('error', (e) => fail(1, 'cannot connect to the relay socket ' + sock + ' as uid ' + (process.getuid ? process.getuid() : '?') + ': ' + e.message)); }
`;

/**
 * The numbers the Perl inner relay needs from the Socket, Fcntl and Errno modules, written into it
 * as plain values: loading those modules was most of its start-up (~9 ms of CPU of ~11, paid
 * before every sandboxed agent turn). These are Linux's values on its common architectures; the
 * host's perl is asked once whether its modules agree (PERL_RELAY_CHECK, src/sandbox/bwrap.ts),
 * else node's relay is used.
 */
const PERL_RELAY_CONSTANTS: [name: string, value: number, module: string][] = [
  ["AF_INET", 2, "Socket::AF_INET()"],
  ["AF_UNIX", 1, "Socket::AF_UNIX()"],
  ["SOCK_STREAM", 1, "Socket::SOCK_STREAM()"],
  ["SOL_SOCKET", 1, "Socket::SOL_SOCKET()"],
  ["SO_REUSEADDR", 2, "Socket::SO_REUSEADDR()"],
  ["SHUT_WR", 1, "Socket::SHUT_WR()"],
  ["IPPROTO_TCP", 6, "Socket::IPPROTO_TCP()"],
  ["TCP_NODELAY", 1, "Socket::TCP_NODELAY()"],
  ["F_GETFL", 3, "Fcntl::F_GETFL()"],
  ["F_SETFL", 4, "Fcntl::F_SETFL()"],
  ["O_NONBLOCK", 2048, "Fcntl::O_NONBLOCK()"],
  ["EAGAIN", 11, "Errno::EAGAIN()"],
];

const PERL_CONSTANTS = `my (${PERL_RELAY_CONSTANTS.map(([n]) => `$${n}`).join(", ")}) = (${PERL_RELAY_CONSTANTS.map(([, v]) => v).join(", ")});`;

/**
 * A `perl -e` program that exits 0 when this perl's Socket, Fcntl and Errno agree with the numbers
 * written into INNER_RELAY_PERL and its socket addresses are packed the way the relay packs them
 * (IPv4 loopback, a unix socket by name), 1 otherwise.
 */
export const PERL_RELAY_CHECK = `use Socket; use Fcntl; use Errno;
exit(1) unless ${PERL_RELAY_CONSTANTS.map(([, v, m]) => `${m} == ${v}`).join(" && ")};
exit(1) unless pack_sockaddr_in(4100, inet_aton('127.0.0.1')) eq pack('S n C4 x8', 2, 4100, 127, 0, 0, 1);
exit(1) unless pack_sockaddr_un('relay.sock') eq pack('S a108', 1, 'relay.sock');
exit(0);`;

/**
 * The same inner relay in Perl, loading no module (the few numbers it needs are written in:
 * PERL_RELAY_CONSTANTS), used by bwrap when the host has a working `perl` outside the hidden
 * folders whose modules agree with those numbers (src/sandbox/bwrap.ts): same argv, same
 * behaviour (listen, then start the command in its own cwd with stdio inherited, forward
 * SIGTERM/SIGINT/SIGHUP, exit with its status or 128 + signal number; 125 when it cannot listen,
 * 127 when the command cannot start), at a few ms of start-up CPU against ~50 ms for node's, paid
 * once per agent turn (docs/sandbox.md). Each connection is piped both ways with half-closes
 * kept, through non-blocking sockets with a bounded buffer each way; one select loop, woken by
 * SIGCHLD through a self-pipe, serves every connection.
 */
export const INNER_RELAY_PERL = `
use strict;
${PERL_CONSTANTS}
my ($sock, $port, @cmd) = @ARGV;
sub fail { print STDERR "skillbench relay: $_[1]\\n"; exit $_[0] }
my ($dir, $name) = $sock =~ m{^(.*)/([^/]+)$} ? (length $1 ? $1 : '/', $2) : ('.', $sock);
opendir(my $cwd, '.') or fail(125, "cannot open the working directory: $!");
chdir $dir or fail(125, "cannot enter $dir: $!");
socket(my $srv, $AF_INET, $SOCK_STREAM, 0) or fail(125, "socket: $!");
setsockopt($srv, $SOL_SOCKET, $SO_REUSEADDR, 1);
bind($srv, pack('S n C4 x8', $AF_INET, $port, 127, 0, 0, 1)) && listen($srv, 4096)
  or fail(125, "cannot listen on 127.0.0.1:$port: $!");
pipe(my $wake, my $waker) or fail(125, "pipe: $!");
my $pid = 0;
if (@cmd) {
  $pid = fork() // fail(125, "fork: $!");
  if (!$pid) {
    chdir $cwd;
    exec { $cmd[0] } @cmd;
    print STDERR "skillbench relay: cannot start $cmd[0]: $!\\n";
    exit 127;
  }
  $SIG{$_} = do { my $s = $_; sub { kill $s, $pid } } for qw(TERM INT HUP);
  $SIG{CHLD} = sub { syswrite $waker, 'x' };
}
$SIG{PIPE} = 'IGNORE';
# Per socket (by fd): its handle, its peer, bytes waiting to be written to it, whether its reading
# side reached EOF, whether its writing side was shut down after the peer's EOF.
my (%fh, %peer, %out, %eof, %shut);
sub nb { fcntl($_[0], $F_SETFL, fcntl($_[0], $F_GETFL, 0) | $O_NONBLOCK) }
sub drop { my $p = $peer{$_[0]}; for my $x ($_[0], $p) { close $fh{$x}; delete $_->{$x} for \\%fh, \\%peer, \\%out, \\%eof, \\%shut } }
while (1) {
  if ($pid && waitpid($pid, 1) == $pid) { exit(($? & 127) ? 128 + ($? & 127) : $? >> 8) }
  my ($rin, $win) = ('', '');
  vec($rin, fileno $_, 1) = 1 for $srv, $wake;
  for my $f (keys %peer) {
    vec($rin, $f, 1) = 1 if !$eof{$f} && length $out{$peer{$f}} < 1048576;
    vec($win, $f, 1) = 1 if length $out{$f};
  }
  next if select(my $rout = $rin, my $wout = $win, undef, undef) <= 0;
  sysread $wake, my $x, 64 if vec($rout, fileno $wake, 1);
  if (vec($rout, fileno $srv, 1) && accept(my $c, $srv)) {
    my $u;
    if (socket($u, $AF_UNIX, $SOCK_STREAM, 0) && connect($u, pack('S a108', $AF_UNIX, $name))) {
      nb($c); nb($u); setsockopt($c, $IPPROTO_TCP, $TCP_NODELAY, 1);
      my ($cf, $uf) = (fileno $c, fileno $u);
      @fh{$cf, $uf} = ($c, $u); @peer{$cf, $uf} = ($uf, $cf); @out{$cf, $uf} = ('', '');
    }
  }
  for my $f (keys %peer) {
    next unless $fh{$f};
    my $p = $peer{$f};
    if (vec($wout, $f, 1)) {
      my $w = syswrite $fh{$f}, $out{$f};
      if (defined $w) { substr($out{$f}, 0, $w) = '' } elsif ($! != $EAGAIN) { drop($f); next }
    }
    if (vec($rout, $f, 1)) {
      my $n = sysread $fh{$f}, my $buf, 65536;
      if ($n) { $out{$p} .= $buf } elsif (defined $n) { $eof{$f} = 1 } elsif ($! != $EAGAIN) { drop($f); next }
    }
  }
  # After every read and write of this turn: a side whose peer reached EOF and whose bytes are all
  # written is shut down now (checked before them, a write later in the turn that emptied it would
  # leave it waiting, and the select below with nothing to wake it).
  for my $f (keys %peer) {
    next unless $fh{$f};
    my $p = $peer{$f};
    if ($eof{$f} && !$shut{$p} && !length $out{$p}) { shutdown $fh{$p}, $SHUT_WR; $shut{$p} = 1 }
    drop($f) if $shut{$f} && $shut{$p};
  }
}
`;
