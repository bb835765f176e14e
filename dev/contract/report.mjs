// What the contract proxy's exchanges say about the contract: which are violations, and the report. Plain Node.
//
// A violation is
//   - anything Prism finds wrong in an answer: its body or headers are not what the document says, or its status is
//     not one the document gives the operation (a warning for Prism, as it cannot validate such an answer), or
//   - anything Prism finds wrong in a request the sandbox then accepted (2xx/3xx): the sandbox took what the document
//     forbids, or served a method or path the document does not have.
// A request the document forbids that the sandbox refuses (4xx) is what the tests of bad input send: counted, fine.
// So is a request that got no answer (the tests that close a sandbox or drop connections): counted as `unanswered`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { REPO } from '../n8n/runtime.mjs';

/** Where the reports (and Prism's logs of the jest run) go. */
export const REPORT_DIR = join(REPO, 'node_modules', '.cache', 'contract');

/**
 * Violations known and owned elsewhere, to be removed once fixed: each names its item of issue 23 and matches a
 * violation by method, path and Prism's message. Empty is the goal.
 */
export const KNOWN = [];

function known(exchange, violation) {
	return KNOWN.find(
		(entry) =>
			(!entry.method || entry.method === exchange.method) &&
			entry.path.test(exchange.path) &&
			entry.message.test(`${violation.location.join('.')} ${violation.message}`),
	);
}

/** Each exchange's violations, judged: `failures` fail the run, `allowed` are known for now, the rest is fine. */
export function judge(exchanges) {
	const failures = [];
	const allowed = [];
	let refused = 0;
	let unanswered = 0;
	for (const exchange of exchanges) {
		if (!exchange.status) {
			unanswered++;
			continue;
		}
		for (const violation of exchange.violations) {
			if (violation.location[0] === 'request' && exchange.status >= 400) {
				refused++;
				continue;
			}
			const entry = {
				method: exchange.method,
				path: exchange.path,
				status: exchange.status,
				violation,
			};
			const allowance = known(exchange, violation);
			if (allowance) allowed.push({ ...entry, item: allowance.item });
			else failures.push(entry);
		}
	}
	return { failures, allowed, refused, unanswered };
}

/**
 * Exchanges a run must have had validated by Prism, request and answer, or it fails: a run where nothing reached
 * Prism (the document matching no path, every request sent around it, no test run at all) finds no violation and
 * would pass while checking nothing. A whole `npm run test:contract` validated 1,495 (2026-11-26); one file run under the
 * proxy sets its own floor with `MULTICHANNEL_CONTRACT_MIN_VALIDATED`.
 */
export const MIN_VALIDATED = { jest: 300, e2e: 20 };

/** The floor of a run: `MULTICHANNEL_CONTRACT_MIN_VALIDATED` when set, else the run's default. */
export function minValidated(run) {
	const chosen = process.env.MULTICHANNEL_CONTRACT_MIN_VALIDATED;
	return chosen === undefined || chosen === '' ? MIN_VALIDATED[run] : Number(chosen);
}

/**
 * Writes the report (JSON) and gives a summary, one line a failure: each violation, and too few exchanges
 * validated (answered through Prism) for the floor `minValidated`.
 */
export function writeReport(file, exchanges, { minValidated = 1 } = {}) {
	const verdict = judge(exchanges);
	const viaPrism = exchanges.filter((exchange) => exchange.via === 'prism');
	const validated = viaPrism.filter((exchange) => exchange.status !== undefined).length;
	const direct = exchanges.filter((exchange) => exchange.via === 'direct');
	const reasons = {};
	for (const exchange of direct) {
		const reason = exchange.reason.replace(/:.*/s, '');
		reasons[reason] = (reasons[reason] ?? 0) + 1;
	}
	const summary = {
		exchanges: exchanges.length,
		validatedByPrism: validated,
		minValidated,
		direct: reasons,
		violations: verdict.failures.length,
		knownViolations: verdict.allowed.length,
		refusedAsDocumented: verdict.refused,
		unanswered: verdict.unanswered,
	};
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify({ summary, ...verdict, exchanges }, null, 1)}\n`);
	const lines = verdict.failures.map(
		({ method, path, status, violation }) =>
			`  ${method} ${path} → ${status}: ${violation.location.join('.')} ${violation.message}`,
	);
	if (validated < minValidated) {
		lines.push(
			`  only ${validated} exchange(s) answered through Prism, below the floor of ${minValidated}: the run checked too little of the contract to pass`,
		);
	}
	return { summary, failed: lines.length > 0, lines };
}
