/** The benchmark's Markdown table (each figure, its baseline, the ratio, the goal) and the notes under it. */
export interface Report {
	row(figure: string, value: string, baseline?: string, ratioText?: string, goal?: string): void;
	note(text: string): void;
}

export function verdict(ok: boolean, goal: string): string {
	return `${goal} ${ok ? '✅ met' : '❌ missed'}`;
}

export function newReport(): Report & { table(): string; notes: string[] } {
	const rows: string[][] = [];
	const notes: string[] = [];
	return {
		row: (figure, value, baseline = '', ratioText = '', goal = '') =>
			rows.push([figure, value, baseline, ratioText, goal]),
		note: (text) => notes.push(text),
		notes,
		table() {
			const header = ['figure', 'n8n-nodes-multichannel', 'baseline (same run)', 'ratio', 'goal'];
			const lines = [header, header.map(() => '---'), ...rows];
			return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
		},
	};
}

/** One side of a comparison: how many units it ran and what each cost. */
export interface CostSide {
	name: string;
	ran: number;
	costPerUnit: number;
}

/**
 * `N× less <cost> per <unit>` of `better` against `baseline`, or why there is nothing to compare. A side that ran
 * no unit, or whose count or cost was not read (NaN), has no cost per unit: dividing by it printed
 * "83988.6× less CPU per click" when the unbatched side ran no click at all.
 */
export function lessPerUnit(
	cost: string,
	unit: string,
	better: CostSide,
	baseline: CostSide,
): string {
	for (const side of [baseline, better]) {
		if (!(side.ran > 0)) return `no ${unit}s ran on the ${side.name} side: nothing to compare`;
		if (!(side.costPerUnit > 0 && Number.isFinite(side.costPerUnit)))
			return `no ${cost} measured on the ${side.name} side: nothing to compare`;
	}
	return `${(baseline.costPerUnit / better.costPerUnit).toFixed(1)}× less ${cost} per ${unit}`;
}
