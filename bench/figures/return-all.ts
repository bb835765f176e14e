/** Return All: `--contacts` contacts through the node against raw cursor paging with undici. */
import { ask, megabytes, ratio, seconds } from '../lib';
import type { Timing } from '../measure';
import { log, type Bench, type Host } from '../processes';
import { verdict } from '../report';

export async function returnAll({ options, report, best }: Bench, host: Host) {
	const { contacts } = options;
	log(`return all: seeding ${contacts} contacts…`);
	const { instanceId } = await ask<{ instanceId: string }>(host.process, {
		kind: 'seedContacts',
		count: contacts,
	});
	const target = { baseUrl: host.baseUrl, apiKey: host.apiKey, instanceId };
	const check = async (timing: Timing) => {
		if (timing.count !== contacts)
			throw new Error(`Return All gave ${timing.count} contacts, expected ${contacts}`);
	};
	log('return all: through the node…');
	const node = await best('returnAllNode', target, check);
	log('return all: raw cursor paging…');
	const raw = await best('returnAllRaw', target, check);
	const allRatio = node.wallMs / raw.wallMs;
	report.row(
		`Return All: ${contacts.toLocaleString('en-US')} contacts, ${Math.ceil(contacts / 100)} pages (wall time)`,
		seconds(node.wallMs),
		`raw cursor paging with undici: ${seconds(raw.wallMs)}`,
		ratio(allRatio),
		verdict(allRatio <= 1.3, '≤ 1.3×'),
	);
	report.row(
		'Return All: peak heap above start',
		megabytes(node.peakHeapMb),
		`raw cursor paging: ${megabytes(raw.peakHeapMb)}`,
		ratio(node.peakHeapMb / Math.max(raw.peakHeapMb, 1)),
	);
	report.row(
		'Return All: peak RSS above start',
		megabytes(node.peakRssMb),
		`raw cursor paging: ${megabytes(raw.peakRssMb)}`,
		ratio(node.peakRssMb / Math.max(raw.peakRssMb, 1)),
	);
}
