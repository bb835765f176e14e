/**
 * The size of a file in words, as a chat's history describes a file (`media`) and as the trigger says why a file
 * was not attached (`mediaNotAttached`): one formatter, one rounding.
 */
import { sizeInWords } from '../../nodes/shared/words';

test.each([
	[0, '0 bytes'],
	[1, '1 byte'],
	[1023, '1023 bytes'],
	[1024, '1.0 KB'],
	[11_264, '11.0 KB'],
	[12_595, '12.3 KB'],
	[1_048_575, '1.0 MB'],
	[1_048_576, '1.0 MB'],
	[2_621_440, '2.5 MB'],
	[17_301_504, '16.5 MB'],
	[5 * 1024 ** 3, '5.0 GB'],
	[2048 * 1024 ** 3, '2048.0 GB'],
])('%i bytes read "%s"', (bytes, words) => {
	expect(sizeInWords(bytes)).toBe(words);
});
