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
