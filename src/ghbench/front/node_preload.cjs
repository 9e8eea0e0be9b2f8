// ghbench: Node.js through the proxy in HTTPS_PROXY / HTTP_PROXY, where Node itself
// does not (NODE_OPTIONS="--require <this file>"; docs/record.md, "Node.js").
//
// Node 22.21+ and 24.5+ route fetch() and the http/https global agents through the
// proxy themselves when NODE_USE_ENV_PROXY=1 (24.0-24.4: fetch only); there this file
// leaves alone what Node does. Elsewhere (Node 20 and 22 before 22.21, 23, and the
// https/http agents of 24.0-24.4) it does the same itself, for the same callers:
// - fetch() (and anything else on undici's global dispatcher, octokit included): an
//   undici Agent, of the class Node's own fetch uses (Node ships undici but does not
//   let a script require it), whose connector opens a CONNECT tunnel to the proxy;
// - https.request/get on the global agent: an https.Agent whose connections are TLS
//   inside a CONNECT tunnel; http.request/get on the global agent: requests in
//   absolute form to the proxy (GET http://host/path), as Node's own support sends them.
// NO_PROXY/no_proxy is honoured (lower case first, as Node and undici read them); an
// agent or dispatcher the program makes itself is its own, as with Node's support.
// The proxy's credential is read from the environment only: nothing here puts it in
// argv, a file or a message.
"use strict";

(function installProxy() {
  const env = process.env;
  const [major, minor] = process.versions.node.split(".").map(Number);
  const optedIn =
    env.NODE_USE_ENV_PROXY === "1" || process.execArgv.includes("--use-env-proxy");
  // which of Node's own proxy support this version has (Node's docs: added in)
  const nativeFetch = optedIn && (major >= 24 || (major === 22 && minor >= 21));
  const nativeAgents =
    optedIn && (major >= 25 || (major === 24 && minor >= 5) || (major === 22 && minor >= 21));
  if (nativeFetch && nativeAgents) {
    return;
  }
  const httpsProxy = parseProxy(env.https_proxy || env.HTTPS_PROXY);
  const httpProxy = parseProxy(env.http_proxy || env.HTTP_PROXY);
  if (httpsProxy === null && httpProxy === null) {
    return;
  }
  const net = require("node:net");
  const tls = require("node:tls");
  const http = require("node:http");
  const https = require("node:https");
  const bypassed = noProxy(env.no_proxy || env.NO_PROXY || "");
  const CONNECT_TIMEOUT_MS = 10000; // as undici's own connector
  const HEAD_LIMIT = 16384;
  const USER_AGENT = `node/${process.version}`;

  function warn(what, error) {
    process.emitWarning(`ghbench: ${what}: ${error && error.message}`, "GhbenchProxyWarning");
  }

  function parseProxy(text) {
    if (!text) {
      return null;
    }
    let url;
    try {
      url = new URL(text.includes("://") ? text : `http://${text}`);
    } catch {
      return null;
    }
    if (url.protocol !== "http:") {
      return null; // a TLS proxy: left to the program (the front is plain HTTP)
    }
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    const auth =
      user || password ? `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` : null;
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    return { host, port: Number(url.port) || 80, auth };
  }

  function noProxy(text) {
    const entries = [];
    for (const raw of text.split(/[\s,]+/)) {
      let entry = raw.trim().toLowerCase();
      if (!entry) {
        continue;
      }
      if (entry === "*") {
        return () => true;
      }
      let port = 0;
      const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      const withPort = /^([^:]+):(\d+)$/.exec(entry);
      if (v6) {
        entry = v6[1];
        port = Number(v6[2] || 0);
      } else if (withPort) {
        entry = withPort[1];
        port = Number(withPort[2]);
      }
      entries.push({ name: entry.replace(/^\*/, "").replace(/^\./, ""), port });
    }
    return (hostname, port) => {
      const host = String(hostname).toLowerCase().replace(/^\[(.*)\]$/, "$1");
      const name = host.replace(/\.$/, "");
      return entries.some(
        (e) =>
          (e.port === 0 || e.port === port) && (name === e.name || name.endsWith(`.${e.name}`))
      );
    };
  }

  function proxyFor(protocol, host, port) {
    if (bypassed(host, port)) {
      return null;
    }
    return protocol === "https:" ? httpsProxy : httpProxy;
  }

  function authority(host, port) {
    return net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
  }

  function tunnelError(message, proxy) {
    const error = new Error(`${message} (proxy ${authority(proxy.host, proxy.port)})`);
    error.code = "ERR_PROXY_TUNNEL";
    return error;
  }

  // a socket to the proxy with a tunnel to host:port in it, or the proxy's refusal
  // (its status line: the front says why there)
  function openTunnel(proxy, host, port, callback) {
    const target = authority(host, port);
    const socket = net.connect({ host: proxy.host, port: proxy.port });
    let head = Buffer.alloc(0);
    let settled = false;
    const settle = (error) => {
      if (settled) {
        return;
      }
      settled = true;
      socket.removeListener("readable", onReadable);
      socket.removeListener("error", settle);
      socket.removeListener("end", onEnd);
      socket.setTimeout(0);
      if (error) {
        socket.destroy();
        callback(error);
      } else {
        callback(null, socket);
      }
    };
    const onEnd = () =>
      settle(tunnelError(`the proxy closed before it answered CONNECT ${target}`, proxy));
    function onReadable() {
      let chunk;
      while (!settled && (chunk = socket.read()) !== null) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end === -1) {
          if (head.length > HEAD_LIMIT) {
            settle(tunnelError(`the proxy's answer to CONNECT ${target} is too long`, proxy));
          }
          continue;
        }
        const statusLine = head.subarray(0, end).toString("latin1").split("\r\n")[0];
        const rest = head.subarray(end + 4);
        if (/^HTTP\/1\.[01] 200(?: |$)/.test(statusLine)) {
          if (rest.length > 0) {
            socket.unshift(rest);
          }
          settle(null);
        } else {
          settle(tunnelError(`the proxy refused CONNECT ${target}: ${statusLine}`, proxy));
        }
      }
    }
    socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
      settle(tunnelError(`the proxy did not answer CONNECT ${target} in time`, proxy))
    );
    socket.on("readable", onReadable);
    socket.once("error", settle);
    socket.once("end", onEnd);
    socket.once("connect", () => {
      // the User-Agent tells the front which CA variable to name, should TLS fail
      const lines = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`];
      lines.push(`User-Agent: ${USER_AGENT}`);
      if (proxy.auth) {
        lines.push(`Proxy-Authorization: ${proxy.auth}`);
      }
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
  }

  // --- fetch(): undici's global dispatcher -------------------------------------------
  function installDispatcher() {
    const key = Symbol.for("undici.globalDispatcher.1");
    if (typeof globalThis.Headers !== "function") {
      return; // no fetch in this Node
    }
    // reading Headers loads Node's undici, which makes its default Agent: its class
    const current = globalThis[key];
    if (!current || typeof current.constructor !== "function") {
      return;
    }
    const Agent = current.constructor;
    globalThis[key] = new Agent({ connect: connector });
  }

  function connector(options, callback) {
    const secure = options.protocol === "https:";
    const host = options.hostname;
    const port = Number(options.port) || (secure ? 443 : 80);
    let done = false;
    const finish = (error, socket) => {
      if (!done) {
        done = true;
        callback(error, error ? undefined : socket);
      }
    };
    const startTls = (socket) => {
      const servername = options.servername || (net.isIP(host) ? undefined : host);
      const secured = tls.connect({
        socket,
        host,
        port,
        servername,
        ALPNProtocols: ["http/1.1"],
      });
      secured.setNoDelay(true);
      secured.once("secureConnect", () => finish(null, secured));
      secured.once("error", (error) => finish(error));
    };
    const proxy = proxyFor(options.protocol, host, port);
    if (proxy === null) {
      const socket = net.connect({ host, port });
      socket.setNoDelay(true);
      socket.once("error", (error) => finish(error));
      socket.once("connect", () => (secure ? startTls(socket) : finish(null, socket)));
      return;
    }
    openTunnel(proxy, host, port, (error, socket) =>
      error ? finish(error) : secure ? startTls(socket) : finish(null, socket)
    );
  }

  // --- https.request / https.get on the global agent ---------------------------------
  class ProxyTunnelAgent extends https.Agent {
    createConnection(options, callback) {
      const host = options.host || "localhost";
      const port = Number(options.port) || 443;
      const proxy = options.socketPath ? null : proxyFor("https:", host, port);
      if (proxy === null) {
        return super.createConnection(options, callback);
      }
      openTunnel(proxy, host, port, (error, socket) => {
        if (error) {
          callback(error);
          return;
        }
        let secured;
        try {
          secured = super.createConnection({ ...options, socket });
        } catch (failure) {
          socket.destroy();
          callback(failure);
          return;
        }
        callback(null, secured);
      });
      return undefined; // the socket comes through the callback
    }
  }

  // --- http.request / http.get on the global agent: absolute form to the proxy -------
  class ProxyForwardAgent extends http.Agent {
    addRequest(request, options) {
      const host = options.host || options.hostname || "localhost";
      const port = Number(options.port) || 80;
      const proxy = options.socketPath ? null : proxyFor("http:", host, port);
      if (proxy === null) {
        super.addRequest(request, options);
        return;
      }
      const origin = `http://${authority(host, port).replace(/:80$/, "")}`;
      const target = /^https?:\/\//i.test(request.path) ? request.path : origin + request.path;
      request.path = target;
      const rendered = request._header;
      if (rendered) {
        // the head is already rendered (headers given as an array), and with an
        // Expect already queued to go out first: both get the absolute form
        const credential = proxy.auth ? `Proxy-Authorization: ${proxy.auth}\r\n` : "";
        const head = rendered
          .replace(/^(\S+) \S+/, (_, method) => `${method} ${target}`)
          .replace(/\r\n\r\n$/, () => `\r\n${credential}\r\n`);
        request._header = head;
        const queued = request.outputData && request.outputData[0];
        if (queued && typeof queued.data === "string" && queued.data.startsWith(rendered)) {
          queued.data = head + queued.data.slice(rendered.length);
          request.outputSize += head.length - rendered.length;
        }
      } else if (proxy.auth) {
        request.setHeader("Proxy-Authorization", proxy.auth);
      }
      super.addRequest(request, { ...options, host: proxy.host, port: proxy.port });
    }
  }

  if (!nativeFetch) {
    try {
      installDispatcher();
    } catch (error) {
      warn("fetch() is not routed through the proxy", error);
    }
  }
  if (!nativeAgents) {
    try {
      if (httpsProxy !== null) {
        https.globalAgent = new ProxyTunnelAgent(https.globalAgent.options);
      }
      if (httpProxy !== null) {
        http.globalAgent = new ProxyForwardAgent(http.globalAgent.options);
      }
    } catch (error) {
      warn("http/https are not routed through the proxy", error);
    }
  }
})();
