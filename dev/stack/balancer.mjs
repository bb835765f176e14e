// A round-robin HTTP proxy in front of n8n's webhook processes, as a load balancer fronts them in a deployment.
// Triggers register its URL; each request goes to the next webhook process. Plain Node (never shipped).
import { createServer, request } from 'node:http';

/**
 * Listens on 127.0.0.1:`port` (0: any free port). `backends` (ports of webhook processes) can change while it
 * runs; `served` counts the requests each backend port was sent. `unavailable`, when set, answers instead of the
 * 503 (no backend) and 502 (backend unreachable): `(res, error) => …` (`error`: the backend's, none when there
 * is no backend), as a proxy that serves a page of its own then.
 */
export async function startBalancer({ port = 0 } = {}) {
	const backends = [];
	const served = new Map();
	let turn = 0;
	const balancer = { backends, served, unavailable: undefined };
	const server = createServer((req, res) => {
		if (backends.length === 0) {
			if (balancer.unavailable) balancer.unavailable(res, undefined);
			else res.writeHead(503, { 'content-type': 'text/plain' }).end('no webhook process is up\n');
			return;
		}
		const backend = backends[turn++ % backends.length];
		served.set(backend, (served.get(backend) ?? 0) + 1);
		const upstream = request(
			{ host: '127.0.0.1', port: backend, method: req.method, path: req.url, headers: req.headers },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.once('error', (error) => {
			if (!res.headersSent && balancer.unavailable) {
				balancer.unavailable(res, error);
				return;
			}
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end('webhook process unreachable\n');
		});
		req.pipe(upstream);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', resolve);
	});
	const { port: listening } = server.address();
	return Object.assign(balancer, {
		url: `http://127.0.0.1:${listening}`,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	});
}
