/**
 * The shipped table of calling codes and lengths (src/client/phone-metadata.generated.ts) is what
 * `npm run phone-metadata` makes from the libphonenumber-js in package.json: regenerate it after updating that.
 */
import { tables } from '../../dev/phone/generate-metadata';
import { CALLING_CODES, COUNTRIES } from '../../src/client/phone-metadata.generated';

test('the phone metadata table is up to date with libphonenumber-js', () => {
	expect({ CALLING_CODES, COUNTRIES }).toEqual(tables);
});
