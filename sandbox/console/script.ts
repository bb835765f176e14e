/**
 * The console's browser script, inlined into the page. Plain ES2020 for the browser, written without
 * template literals so it can live in this string. It builds the DOM with `textContent` only.
 *
 * `window.multichannelConsole` exposes the cURL and example builders so the tests can check them against
 * the contract's own schemas.
 */
export const CONSOLE_SCRIPT = String.raw`
(function () {
	'use strict';
	var STORAGE = 'multichannel-console-key';
	var BASE_URL = (document.body.getAttribute('data-base-url') || location.origin).replace(/\/+$/, '');
	var KIND_PREFIX = { workspace: 'mcw_', shortLink: 'mcl_', automation: 'mca_' };
	var KIND_LABEL = { workspace: 'Workspace', shortLink: 'Short link', automation: 'Automation' };
	var SCHEME_KIND = { workspaceKey: 'workspace', shortLinkKey: 'shortLink', automationKey: 'automation' };
	var KIND_SCOPES = {
		workspace: ['messaging:read', 'messaging:write'],
		shortLink: ['links:read', 'links:write'],
		automation: ['automation:read', 'automation:write']
	};

	function $(id) { return document.getElementById(id); }
	function el(tag, attrs, children) {
		var node = document.createElement(tag);
		Object.keys(attrs || {}).forEach(function (name) {
			var value = attrs[name];
			if (value === undefined || value === null || value === false) return;
			if (name === 'text') node.textContent = String(value);
			else if (name === 'className') node.className = value;
			else node.setAttribute(name, value === true ? '' : String(value));
		});
		(children || []).forEach(function (child) {
			if (child === null || child === undefined) return;
			node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
		});
		return node;
	}
	function show(node, visible) { node.hidden = !visible; }
	function setError(node, message) { node.textContent = message || ''; show(node, Boolean(message)); }
	function notice(message) { setError($('notice'), message); }
	function formatTime(value) {
		if (!value) return 'never';
		var date = new Date(value);
		return date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
	}

	// ---- console API -------------------------------------------------------------------------------------

	var signedInKey = sessionStorage.getItem(STORAGE);

	function call(method, path, body) {
		var headers = { Accept: 'application/json' };
		if (signedInKey) headers.Authorization = 'Bearer ' + signedInKey;
		if (body !== undefined) headers['Content-Type'] = 'application/json';
		return fetch('/user/api' + path, {
			method: method,
			headers: headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			cache: 'no-store'
		}).then(function (response) {
			return response.text().then(function (text) {
				var data = null;
				try { data = text ? JSON.parse(text) : null; } catch (error) { data = null; }
				if (!response.ok) {
					var failure = new Error((data && data.error && data.error.message) || ('HTTP ' + response.status));
					failure.status = response.status;
					failure.body = data;
					throw failure;
				}
				return data;
			});
		});
	}

	function signOut(message) {
		signedInKey = null;
		sessionStorage.removeItem(STORAGE);
		clearSecret();
		show($('keys'), false);
		show($('who'), false);
		show($('signin'), true);
		$('keys-body').textContent = '';
		notice(message || '');
	}

	function enter(key) {
		signedInKey = key;
		return call('GET', '/session').then(function (session) {
			sessionStorage.setItem(STORAGE, key);
			$('workspace-name').textContent = session.workspace.name + ' (' + session.workspace.id + ')';
			$('signed-in-key').textContent = 'signed in with ' + session.key.prefix + '…';
			show($('signin'), false);
			show($('who'), true);
			show($('keys'), true);
			notice('');
			return loadKeys();
		}, function (error) {
			signedInKey = null;
			sessionStorage.removeItem(STORAGE);
			throw error;
		});
	}

	// ---- keys --------------------------------------------------------------------------------------------

	function renderScopes() {
		var kind = $('create-kind').value;
		var box = $('create-scopes');
		box.textContent = '';
		KIND_SCOPES[kind].forEach(function (scope) {
			var input = el('input', { type: 'checkbox', name: 'scope', value: scope, checked: true });
			input.checked = true;
			box.appendChild(el('label', {}, [input, scope]));
		});
	}

	function loadKeys() {
		return call('GET', '/keys').then(function (page) {
			var body = $('keys-body');
			body.textContent = '';
			page.data.forEach(function (key) {
				var revoke = null;
				if (key.status === 'active') {
					revoke = el('button', { type: 'button', className: 'danger small revoke', text: 'Revoke' });
					revoke.addEventListener('click', function () { revokeClicked(revoke, key); });
				}
				body.appendChild(el('tr', { 'data-key-id': key.id, className: key.status }, [
					el('td', { className: 'name', text: key.name }),
					el('td', { className: 'prefix mono', text: key.prefix + '…' }),
					el('td', { className: 'kind', text: KIND_LABEL[key.kind] || key.kind }),
					el('td', { className: 'scopes' }, key.scopes.map(function (scope) {
						return el('span', { className: 'badge', text: scope });
					})),
					el('td', { className: 'created', text: formatTime(key.createdAt) }),
					el('td', { className: 'last-used', text: formatTime(key.lastUsedAt) }),
					el('td', { className: 'status' }, [el('span', { className: 'badge ' + key.status, text: key.status })]),
					el('td', {}, [revoke])
				]));
			});
		});
	}

	function revokeClicked(button, key) {
		if (!button.classList.contains('confirming')) {
			button.classList.add('confirming');
			button.textContent = 'Confirm revoke';
			setTimeout(function () {
				if (!button.isConnected || button.disabled) return;
				button.classList.remove('confirming');
				button.textContent = 'Revoke';
			}, 6000);
			return;
		}
		button.disabled = true;
		var own = signedInKey && signedInKey.slice(0, key.prefix.length) === key.prefix;
		call('POST', '/keys/' + encodeURIComponent(key.id) + '/revoke').then(function () {
			notice('Key "' + key.name + '" (' + key.prefix + '…) was revoked: requests with it now get 401.');
			if (own) { signOut('You revoked the key you signed in with; sign in with another key.'); return; }
			return loadKeys();
		}).catch(function (error) {
			button.disabled = false;
			if (error.status === 401) { signOut(error.message); return; }
			notice(error.message);
		});
	}

	var lastSecret = null;
	function clearSecret() {
		lastSecret = null;
		$('secret-value').textContent = '';
		$('secret-name').textContent = '';
		show($('secret-panel'), false);
	}

	function copyText(text, button) {
		function done(ok) {
			var label = button.textContent;
			button.textContent = ok ? 'Copied' : 'Select and copy';
			setTimeout(function () { button.textContent = label; }, 1500);
		}
		if (navigator.clipboard && window.isSecureContext) {
			navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(fallbackCopy(text)); });
		} else {
			done(fallbackCopy(text));
		}
	}
	function fallbackCopy(text) {
		var area = el('textarea', { readonly: true });
		area.value = text;
		document.body.appendChild(area);
		area.select();
		var ok = false;
		try { ok = document.execCommand('copy'); } catch (error) { ok = false; }
		area.remove();
		return ok;
	}

	// ---- API reference -----------------------------------------------------------------------------------

	var spec = null;
	var operations = [];

	function resolve(schema) {
		var seen = 0;
		while (schema && schema.$ref && seen < 20) {
			var path = schema.$ref.replace(/^#\//, '').split('/');
			var target = spec;
			path.forEach(function (part) { target = target ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined; });
			schema = target;
			seen += 1;
		}
		return schema || {};
	}

	var NAMED_STRINGS = {
		to: '+14155550123', from: '+14155550123', phoneNumber: '+14155550123', phoneNumbers: '+14155550123',
		participants: '+14155550123', text: 'Hello from the Multichannel API', subject: 'Support team',
		question: 'Which day works for you?', options: 'Option', title: 'Spring sale', emoji: '👍',
		name: 'Example', description: 'Created from the API console', caption: 'Photo', fileName: 'photo.jpg',
		mimeType: 'image/jpeg', secret: 'whsec_sandbox_example_secret_0123', messageId: 'msg_0123456789abcdef',
		quotedMessageId: 'msg_0123456789abcdef', code: 'spring-sale', tags: 'example', organization: 'Example Inc.',
		address: '1 Example Street', events: 'automation.order.created', instanceIds: 'ins_0123456789abcdef',
		linkIds: 'lnk_0123456789abcdef'
	};
	var FALLBACK_STRINGS = ['example', 'order.created', 'automation.order.created', '+14155550123', 'spring-sale',
		'120363000000000000@g.us', 'ada@example.com', 'https://example.com'];

	function exampleString(schema, name, index) {
		if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/' + (name === 'url' ? 'landing' : 'file.jpg');
		if (schema.format === 'email') return 'ada@example.com';
		if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
		var candidates = [];
		if (NAMED_STRINGS[name]) candidates.push(NAMED_STRINGS[name]);
		if (name === 'name' && schema.pattern) candidates.push('order.created');
		candidates = candidates.concat(FALLBACK_STRINGS);
		var pattern = null;
		try { pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : null; } catch (error) { pattern = null; }
		for (var i = 0; i < candidates.length; i += 1) {
			var value = candidates[i];
			if (index > 0 && !schema.pattern) value = value + ' ' + (index + 1);
			if (pattern && !pattern.test(value)) continue;
			if (schema.maxLength !== undefined && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
			while (schema.minLength !== undefined && value.length < schema.minLength) value = value + 'x';
			return value;
		}
		return 'example';
	}

	function example(schemaIn, name, index, depth) {
		var schema = resolve(schemaIn);
		if (depth > 8) return null;
		if (schema.const !== undefined) return schema.const;
		if (schema.enum) return schema.enum[0];
		if (schema.default !== undefined) return schema.default;
		var options = schema.anyOf || schema.oneOf;
		if (options) {
			var choice = options.map(resolve).filter(function (option) { return option.type !== 'null'; })[0] || {};
			return example(choice, name, index, depth + 1);
		}
		if (schema.allOf) {
			var merged = { type: 'object', properties: {}, required: [] };
			schema.allOf.map(resolve).forEach(function (part) {
				Object.assign(merged.properties, part.properties || {});
				merged.required = merged.required.concat(part.required || []);
			});
			return example(merged, name, index, depth + 1);
		}
		var type = Array.isArray(schema.type) ? schema.type.filter(function (t) { return t !== 'null'; })[0] : schema.type;
		if (type === 'object' || schema.properties) {
			var result = {};
			var properties = schema.properties || {};
			var required = schema.required || [];
			// Required fields only; an all-optional body (an update) gets its first field.
			var names = required.length ? required : Object.keys(properties).slice(0, 1);
			names.forEach(function (field) {
				if (properties[field]) result[field] = example(properties[field], field, 0, depth + 1);
			});
			return result;
		}
		if (type === 'array') {
			var count = Math.max(schema.minItems || 1, 1);
			var items = [];
			for (var i = 0; i < count; i += 1) items.push(example(schema.items || {}, name, i, depth + 1));
			return items;
		}
		if (type === 'integer' || type === 'number') {
			if (name === 'latitude') return 52.52;
			if (name === 'longitude') return 13.405;
			if (schema.minimum !== undefined) return schema.minimum;
			if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + 1;
			return 1;
		}
		if (type === 'boolean') return false;
		return exampleString(schema, name, index);
	}

	function shellQuote(text) { return "'" + String(text).replace(/'/g, "'\\''") + "'"; }

	function operationBody(operation) {
		var body = operation.requestBody;
		if (!body || !body.content) return null;
		if (body.content['application/json']) {
			return { type: 'json', value: example(body.content['application/json'].schema, '', 0, 0) };
		}
		if (body.content['multipart/form-data']) {
			return { type: 'multipart', value: example(body.content['multipart/form-data'].schema, '', 0, 0) };
		}
		return null;
	}

	function buildCurl(entry, key, pathValues) {
		var path = entry.path.replace(/\{(\w+)\}/g, function (whole, name) {
			var value = pathValues && pathValues[name];
			return value ? encodeURIComponent(value) : whole;
		});
		var query = entry.parameters.filter(function (p) { return p.in === 'query' && p.required; }).map(function (p) {
			return encodeURIComponent(p.name) + '=' + encodeURIComponent(String(example(p.schema || {}, p.name, 0, 0)));
		});
		var url = BASE_URL + path + (query.length ? '?' + query.join('&') : '');
		var lines = ['curl ' + (entry.method === 'GET' ? '' : '-X ' + entry.method + ' ') + shellQuote(url)];
		lines.push('  -H ' + shellQuote('Authorization: Bearer ' + (key || '<API_KEY>')));
		lines.push('  -H ' + shellQuote('Accept: application/json'));
		var body = operationBody(entry.operation);
		if (body && body.type === 'json') {
			lines.push('  -H ' + shellQuote('Content-Type: application/json'));
			lines.push('  -d ' + shellQuote(JSON.stringify(body.value, null, 2)));
		} else if (body && body.type === 'multipart') {
			Object.keys(body.value).forEach(function (field) {
				if (field === 'file') return;
				var value = body.value[field];
				lines.push('  -F ' + shellQuote(field + '=' + (typeof value === 'string' ? value : JSON.stringify(value))));
			});
			lines.push('  -F ' + shellQuote('file=@photo.jpg;type=image/jpeg'));
		}
		return lines.join(' \\\n');
	}

	function keyKind(key) {
		var kinds = Object.keys(KIND_PREFIX);
		for (var i = 0; i < kinds.length; i += 1) if (key.indexOf(KIND_PREFIX[kinds[i]]) === 0) return kinds[i];
		return null;
	}

	function parameterRows(entry) {
		if (!entry.parameters.length && !entry.operation.requestBody) return null;
		var rows = entry.parameters.map(function (p) {
			var schema = resolve(p.schema || {});
			var type = schema.type || (schema.anyOf ? 'one of several' : (schema.enum ? 'enum' : ''));
			if (schema.enum) type = (schema.type || 'string') + ': ' + schema.enum.join(' | ');
			return el('tr', {}, [
				el('td', { className: 'mono', text: p.name }),
				el('td', { text: p.in }),
				el('td', { text: p.required ? 'required' : 'optional' }),
				el('td', { text: String(type) }),
				el('td', { className: 'muted', text: p.description || '' })
			]);
		});
		var body = entry.operation.requestBody;
		if (body && body.content) {
			var type = Object.keys(body.content)[0];
			var schema = body.content[type].schema || {};
			var ref = schema.$ref ? schema.$ref.split('/').pop() : (schema.allOf && schema.allOf[0].$ref ? schema.allOf[0].$ref.split('/').pop() : 'object');
			rows.push(el('tr', {}, [
				el('td', { className: 'mono', text: 'body' }), el('td', { text: type }), el('td', { text: 'required' }),
				el('td', { text: ref }), el('td', { className: 'muted', text: 'example in the cURL command below' })
			]));
		}
		return el('table', { className: 'params' }, [
			el('thead', {}, [el('tr', {}, ['Name', 'In', '', 'Type', 'Description'].map(function (h) { return el('th', { text: h }); }))]),
			el('tbody', {}, rows)
		]);
	}

	function renderReference() {
		var key = $('ref-key').value.trim();
		var filter = $('ref-filter').value.trim().toLowerCase();
		var container = $('reference-body');
		container.textContent = '';
		var groups = {};
		var order = (spec.tags || []).map(function (tag) { return tag.name; });
		operations.forEach(function (entry) {
			var haystack = (entry.method + ' ' + entry.path + ' ' + (entry.operation.summary || '') + ' ' + entry.tag).toLowerCase();
			if (filter && haystack.indexOf(filter) < 0) return;
			if (order.indexOf(entry.tag) < 0) order.push(entry.tag);
			(groups[entry.tag] = groups[entry.tag] || []).push(entry);
		});
		order.forEach(function (tagName) {
			var entries = groups[tagName];
			if (!entries) return;
			var tag = (spec.tags || []).filter(function (t) { return t.name === tagName; })[0] || {};
			var section = el('section', { className: 'tag', 'data-tag': tagName }, [
				el('h3', {}, [tagName + ' ', el('span', { className: 'muted', text: tag.description || '' })])
			]);
			entries.forEach(function (entry) { section.appendChild(renderOperation(entry, key)); });
			container.appendChild(section);
		});
		if (!container.children.length) container.appendChild(el('p', { className: 'muted', text: 'No endpoint matches the filter.' }));
	}

	function renderOperation(entry, key) {
		var details = el('details', { className: 'op', 'data-operation-id': entry.id, open: entry.open || undefined });
		details.addEventListener('toggle', function () { entry.open = details.open; });
		var kindNeeded = entry.kind;
		details.appendChild(el('summary', {}, [
			el('span', { className: 'method ' + entry.method.toLowerCase(), text: entry.method }),
			el('code', { className: 'path', text: entry.path }),
			el('span', { className: 'summary', text: entry.operation.summary || '' }),
			el('span', { className: 'kind' }, [
				kindNeeded ? el('span', { className: 'badge', text: KIND_LABEL[kindNeeded] + ' key' }) : null,
				entry.operation['x-scope'] ? el('span', { className: 'badge', text: entry.operation['x-scope'] }) : null
			])
		]));
		var body = el('div', { className: 'body' });
		var table = parameterRows(entry);
		if (table) body.appendChild(table);
		var pathParams = entry.parameters.filter(function (p) { return p.in === 'path'; });
		var pre = el('pre', { className: 'curl' });
		function update() { pre.textContent = buildCurl(entry, key, entry.pathValues); }
		if (pathParams.length) {
			var inputs = el('div', { className: 'path-inputs' });
			pathParams.forEach(function (p) {
				var input = el('input', { type: 'text', 'data-param': p.name, placeholder: p.name, spellcheck: 'false' });
				input.value = entry.pathValues[p.name] || '';
				input.addEventListener('input', function () { entry.pathValues[p.name] = input.value.trim(); update(); });
				inputs.appendChild(el('label', {}, [p.name + ' ', input]));
			});
			body.appendChild(inputs);
		}
		var given = key ? keyKind(key) : null;
		if (!key) body.appendChild(el('p', { className: 'warn', text: 'Paste a key above to fill in the Authorization header.' }));
		else if (kindNeeded && given !== kindNeeded) {
			body.appendChild(el('p', { className: 'warn', text: 'This endpoint takes a ' + KIND_LABEL[kindNeeded].toLowerCase() + ' key (' + KIND_PREFIX[kindNeeded] + '…); the key above would get 403.' }));
		}
		var copy = el('button', { type: 'button', className: 'secondary small copy', text: 'Copy cURL' });
		copy.addEventListener('click', function () { copyText(pre.textContent, copy); });
		body.appendChild(el('div', { className: 'curl-head' }, [el('span', { className: 'label', text: 'cURL' }), copy]));
		update();
		body.appendChild(pre);
		details.appendChild(body);
		return details;
	}

	function loadReference() {
		return fetch('/api/v1/openapi.json', { headers: { Accept: 'application/json' } }).then(function (response) {
			if (!response.ok) throw new Error('The OpenAPI document could not be loaded (HTTP ' + response.status + ')');
			return response.json();
		}).then(function (document) {
			spec = document;
			operations = [];
			Object.keys(spec.paths || {}).forEach(function (path) {
				var item = spec.paths[path];
				['get', 'post', 'patch', 'put', 'delete'].forEach(function (method) {
					var operation = item[method];
					if (!operation || !operation.security) return; // the public short-link redirect takes no key
					var scheme = Object.keys(operation.security[0] || {})[0];
					operations.push({
						id: operation.operationId,
						method: method.toUpperCase(),
						path: path,
						tag: (operation.tags || ['Other'])[0],
						kind: SCHEME_KIND[scheme] || null,
						operation: operation,
						parameters: (item.parameters || []).concat(operation.parameters || []).map(resolve),
						pathValues: {},
						open: false
					});
				});
			});
			renderReference();
		}).catch(function (error) {
			setError($('reference-error'), error.message);
			$('reference-body').textContent = '';
		});
	}

	// ---- wiring ------------------------------------------------------------------------------------------

	$('signin-form').addEventListener('submit', function (event) {
		event.preventDefault();
		var key = $('signin-key').value.trim();
		setError($('signin-error'), '');
		$('signin-submit').disabled = true;
		enter(key).then(function () { $('signin-key').value = ''; }, function (error) {
			setError($('signin-error'), error.message);
		}).then(function () { $('signin-submit').disabled = false; });
	});

	$('signout').addEventListener('click', function () { signOut(''); });
	$('create-kind').addEventListener('change', renderScopes);

	$('create-form').addEventListener('submit', function (event) {
		event.preventDefault();
		setError($('create-error'), '');
		var scopes = Array.prototype.slice.call(document.querySelectorAll('#create-scopes input:checked')).map(function (input) { return input.value; });
		if (!scopes.length) { setError($('create-error'), 'Choose at least one scope.'); return; }
		$('create-submit').disabled = true;
		call('POST', '/keys', { name: $('create-name').value.trim(), kind: $('create-kind').value, scopes: scopes }).then(function (created) {
			lastSecret = created.secret;
			$('secret-name').textContent = '"' + created.key.name + '"';
			$('secret-value').textContent = created.secret;
			show($('secret-panel'), true);
			$('create-name').value = '';
			return loadKeys();
		}).catch(function (error) {
			if (error.status === 401) { signOut(error.message); return; }
			setError($('create-error'), error.message);
		}).then(function () { $('create-submit').disabled = false; });
	});

	$('secret-copy').addEventListener('click', function () { if (lastSecret) copyText(lastSecret, $('secret-copy')); });
	$('secret-use').addEventListener('click', function () {
		if (!lastSecret) return;
		$('ref-key').value = lastSecret;
		renderReference();
		$('reference').scrollIntoView();
	});
	$('secret-dismiss').addEventListener('click', clearSecret);
	$('ref-key').addEventListener('input', function () { if (spec) renderReference(); });
	$('ref-filter').addEventListener('input', function () { if (spec) renderReference(); });

	window.multichannelConsole = {
		ready: null,
		curlFor: function (operationId, key, pathValues) {
			var entry = operations.filter(function (e) { return e.id === operationId; })[0];
			return entry ? buildCurl(entry, key, pathValues || {}) : null;
		},
		exampleBodies: function () {
			var bodies = {};
			operations.forEach(function (entry) {
				var body = operationBody(entry.operation);
				if (body) bodies[entry.id] = body;
			});
			return bodies;
		}
	};

	renderScopes();
	var referenceReady = loadReference();
	var sessionReady = signedInKey
		? enter(signedInKey).catch(function (error) { signOut(error.status === 401 ? 'Signed out: ' + error.message : error.message); })
		: Promise.resolve();
	window.multichannelConsole.ready = Promise.all([referenceReady, sessionReady]).then(function () {
		document.body.setAttribute('data-ready', 'true');
		return true;
	});
})();
`;
