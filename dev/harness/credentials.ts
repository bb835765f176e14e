import {
	ICredentialsHelper,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IHttpRequestOptions,
	type INode,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowExecuteAdditionalData,
	type Workflow,
} from 'n8n-workflow';

/** Credential values by credential type name, as a user would enter them. */
export type CredentialValues = Record<string, ICredentialDataDecryptedObject>;

/**
 * Holds decrypted credential values and applies a credential's `authenticate`: a function is called, a
 * `generic` block has each key and value resolved as an expression with `$credentials`, then set on the
 * request, as n8n's own credentials helper does.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly values: CredentialValues,
		/** Told of every read of a credential's values (n8n-core's `getCredentials` comes here). */
		private readonly onRead: (type: string) => void = () => {},
	) {
		super();
	}

	private type(name: string): ICredentialType {
		const type = this.types[name];
		if (!type) throw new Error(`The package has no credential type "${name}"`);
		return type;
	}

	getParentTypes(name: string): string[] {
		return this.type(name).extends ?? [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new Error('A generic authenticate block needs the workflow and node');
			const resolve = (value: unknown) =>
				typeof value === 'string' && value.startsWith('=')
					? String(
							workflow.expression.getSimpleParameterValue(
								node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
				if (entries === null || typeof entries !== 'object') {
					(target as Record<string, unknown>)[outerKey] = resolve(entries);
					continue;
				}
				target[outerKey] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
					target[outerKey][String(resolve(key))] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('The harness only serves decrypted credential values (getDecrypted)');
	}

	/** The values given for the type, with the credential's defaults filled in, as n8n does. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.onRead(type);
		const values = this.values[type];
		if (!values) throw new Error(`No credential values given for "${type}"`);
		return withDefaults(this.type(type).properties, values);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}
}

/** Values with the credential's defaults filled in, as n8n does. */
export function withDefaults(
	properties: INodeProperties[],
	values: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const result: ICredentialDataDecryptedObject = {};
	for (const property of properties) {
		if (property.default !== undefined && property.default !== null) {
			result[property.name] = property.default as ICredentialDataDecryptedObject[string];
		}
	}
	return { ...result, ...values };
}
