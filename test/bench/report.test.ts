import { lessPerUnit } from '../../bench/report';

const batched = { name: 'batched', ran: 10_000, costPerUnit: 2 };
const unbatched = { name: 'unbatched', ran: 1_000, costPerUnit: 152 };

describe('the bench compares a cost per unit only when both sides have one', () => {
	it('divides the baseline by the better side', () => {
		expect(lessPerUnit('CPU', 'click', batched, unbatched)).toBe('76.0× less CPU per click');
	});

	it('says so when the unbatched side ran no click (it printed 83988.6× less CPU per click)', () => {
		const none = { ...unbatched, ran: 0, costPerUnit: 167_977 };
		expect(lessPerUnit('CPU', 'click', batched, none)).toBe(
			'no clicks ran on the unbatched side: nothing to compare',
		);
	});

	it('says so when the better side ran nothing, or a count was not read', () => {
		expect(lessPerUnit('CPU', 'click', { ...batched, ran: 0 }, unbatched)).toBe(
			'no clicks ran on the batched side: nothing to compare',
		);
		expect(lessPerUnit('CPU', 'click', batched, { ...unbatched, ran: NaN })).toBe(
			'no clicks ran on the unbatched side: nothing to compare',
		);
	});

	it('says so when a cost is zero or was not read', () => {
		expect(lessPerUnit('CPU', 'click', { ...batched, costPerUnit: 0 }, unbatched)).toBe(
			'no CPU measured on the batched side: nothing to compare',
		);
		expect(lessPerUnit('CPU', 'click', batched, { ...unbatched, costPerUnit: NaN })).toBe(
			'no CPU measured on the unbatched side: nothing to compare',
		);
	});
});
