import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IDataObject,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { countryChoices } from '../src/client/phone-number';

/**
 * What the three Multichannel credentials share. Each credential class keeps only what identifies it (name,
 * display name, icon, documentation link) and takes its fields, its Bearer authentication and its test
 * request from here, so the three stay alike.
 *
 * Paths and scopes repeat the contract in `src/client` on purpose: credentials are loaded by n8n on their own
 * (for the credential list and the "Save" test) and should not pull the client and its schemas in.
 */

/** The local sandbox, the default until the user enters the address of their own service. */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:8787';

/** The console page where keys are generated (on the service's web host). */
export const CONSOLE_PATH = '/user/api';

/** What the credential of one key kind shows and how "Save" tests it. */
export interface KeyCredential {
	/** The key's name in sentence text: "workspace", "short-link", "automation". */
	label: string;
	/** The request "Save" sends: cheap, read-only, below `/api/v1`. */
	testPath: string;
	testQuery?: IDataObject;
	/** The scope the test request needs. */
	testScope: string;
}

export const WORKSPACE_CREDENTIAL: KeyCredential = {
	label: 'workspace',
	testPath: '/api/v1/models',
	testScope: 'messaging:read',
};

export const SHORT_LINK_CREDENTIAL: KeyCredential = {
	label: 'short-link',
	testPath: '/api/v1/links',
	testQuery: { limit: 1 },
	testScope: 'links:read',
};

export const AUTOMATION_CREDENTIAL: KeyCredential = {
	label: 'automation',
	testPath: '/api/v1/automation/events',
	testQuery: { limit: 1 },
	testScope: 'automation:read',
};

/** Where a key comes from, then Base URL and API key. */
export function keyProperties(kind: KeyCredential): INodeProperties[] {
	return [
		{
			// A notice, not the key field's hint: n8n replaces a field's hint by "This field is required" as soon as
			// the empty key loses focus, which is when a person without a key looks for where to get one.
			// No address of its own: the sandbox may run on another port, and `npm start` fills in Base URL with it.
			displayName: `No key yet? Open the address in Base URL below with ${CONSOLE_PATH} added (for the local sandbox, the Console address that npm start printed), make a new ${kind.label} key there, and paste it under API Key: it is shown only once.`,
			name: 'keyNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: SANDBOX_BASE_URL,
			required: true,
			placeholder: 'e.g. https://api.example.com',
			description:
				'Address of the Multichannel API. A trailing slash or /api/v1 is ignored. The default is the local sandbox.',
			hint: 'If the test answers ECONNREFUSED, ENOTFOUND or ETIMEDOUT, n8n could not reach this address: check the host and port, that the service is running, and that n8n can reach it (inside Docker, 127.0.0.1 is n8n’s own container).',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: `A ${kind.label} API key. Generate one in the Multichannel console at ${CONSOLE_PATH}: the secret is shown only once.`,
		},
	];
}

/**
 * A Default Country field: the country whose national forms ("(415) 555-0177", "030 1234567") a number typed
 * without its country code is read in (src/client/phone-number.ts). `unset` names the choice of none.
 */
export function defaultCountryOptions(unset: string, description: string): INodeProperties {
	return {
		displayName: 'Default Country',
		name: 'defaultCountry',
		type: 'options',
		default: '',
		options: [{ name: unset, value: '' }, ...countryChoices()],
		description,
	};
}

/**
 * The workspace credential's Default Country. Empty (the default, and what credentials saved before it have):
 * only international forms are taken, and a national-looking number is refused.
 */
export const defaultCountryProperty = defaultCountryOptions(
	'None (Numbers Need Their Country Code)',
	'The country whose national numbers, such as (415) 555-0177 in the United States or 030 1234567 in Germany, are written without a country code. With none, such numbers are refused instead of being sent to another country.',
);

/**
 * `Authorization: Bearer <key>` on every request n8n sends with this credential. A function, not the usual
 * `{ type: 'generic', … '=Bearer {{$credentials.apiKey}}' }` block: n8n evaluates that block's expression on
 * every request, which under n8n 2.x's default expression engine needs an isolate (see docs/n8n-findings.md, "What
 * n8n evaluates for a delivery"); n8n calls a function as it is.
 */
export async function bearerAuthentication(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return {
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey)}` },
	};
}

/**
 * The base URL as the client normalises it: trimmed, without trailing slashes, without a trailing `/api/v1`.
 * The test request then adds the full path, so all three ways of writing the base URL test the same endpoint.
 */
const NORMALISED_BASE_URL =
	'={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "").replace(/\\/api\\/v1$/i, "") }}';

/** The request n8n sends when the user saves the credential, and what to say when it fails. */
export function keyTest(kind: KeyCredential): ICredentialTestRequest {
	return {
		request: {
			baseURL: NORMALISED_BASE_URL,
			url: kind.testPath,
			method: 'GET',
			...(kind.testQuery ? { qs: kind.testQuery } : {}),
			headers: { Accept: 'application/json' },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: `The API key was rejected. Check that it was copied whole, or generate a new ${kind.label} key in the Multichannel console: ${CONSOLE_PATH} on the host of the Base URL.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: `The API key is valid but may not read ${kind.testPath}: it is not a ${kind.label} key, or it lacks the ${kind.testScope} scope.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: `Nothing answered at ${kind.testPath}. Check the base URL: it should be the address of the Multichannel API.`,
				},
			},
		],
	};
}
