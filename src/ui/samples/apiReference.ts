/** Sample: an HTML API reference page with nested headings, tables with captions and code (written for Chunkscope). */
export const apiReference = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Parcelpost API Reference</title>
</head>
<body>
<h1>Parcelpost API Reference</h1>
<p>Parcelpost lets a shop create shipments, buy labels and follow parcels until they are delivered. Every request
goes to <code>https://api.parcelpost.example/v2</code> over HTTPS and every response is JSON encoded in UTF-8.</p>

<h2>1. Authentication</h2>
<p>Send your secret key in the <code>Authorization</code> header as a bearer token. Keys starting with
<code>pp_test_</code> work in the sandbox only; they never create real labels and are never charged.</p>
<pre><code>curl https://api.parcelpost.example/v2/shipments \\
  -H "Authorization: Bearer pp_test_4f9c2a"</code></pre>
<p>A missing or revoked key is answered with <code>401 Unauthorized</code>. Rotate keys from the dashboard; the old
key keeps working for 24 hours so that running jobs can finish.</p>

<h3>1.1 Scopes</h3>
<p>A key carries scopes. A key without the scope a request needs receives <code>403 Forbidden</code> and the body
names the missing scope.</p>
<table>
  <caption>Scopes and what they allow</caption>
  <thead>
    <tr><th>Scope</th><th>Allows</th><th>Typical user</th></tr>
  </thead>
  <tbody>
    <tr><td>shipments:read</td><td>List and fetch shipments and tracking events</td><td>Customer service tools</td></tr>
    <tr><td>shipments:write</td><td>Create, update and cancel shipments</td><td>The shop backend</td></tr>
    <tr><td>labels:buy</td><td>Buy labels; charges the account</td><td>The warehouse printer service</td></tr>
    <tr><td>webhooks:manage</td><td>Register and delete webhook endpoints</td><td>Administrators</td></tr>
  </tbody>
</table>

<h3>1.2 Rate limits</h3>
<p>Each key may send 50 requests per second with bursts up to 200. Past that the API answers
<code>429 Too Many Requests</code> with a <code>Retry-After</code> header in seconds. Label purchases count five times.</p>

<h2>2. Shipments</h2>
<p>A shipment describes one parcel: where it goes, what it weighs and which service carries it. It starts as a
<em>draft</em>, becomes <em>purchased</em> once a label is bought and ends as <em>delivered</em> or <em>returned</em>.</p>

<h3>2.1 Create a shipment</h3>
<p><code>POST /shipments</code> creates a draft. Weights are in grams and dimensions in millimetres; the API rounds
neither.</p>
<pre><code>{
  "to": { "name": "Ada Byron", "street": "12 Harbour Lane", "postcode": "BS1 4RN", "country": "GB" },
  "parcel": { "weight_g": 1250, "length_mm": 300, "width_mm": 200, "height_mm": 120 },
  "service": "standard"
}</code></pre>
<table>
  <caption>Shipment fields</caption>
  <thead>
    <tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr>
  </thead>
  <tbody>
    <tr><td>to</td><td>Address</td><td>Yes</td><td>Country as an ISO 3166 alpha-2 code</td></tr>
    <tr><td>from</td><td>Address</td><td>No</td><td>Defaults to the account's warehouse</td></tr>
    <tr><td>parcel.weight_g</td><td>integer</td><td>Yes</td><td>1 to 30000</td></tr>
    <tr><td>service</td><td>string</td><td>Yes</td><td>economy, standard or express</td></tr>
    <tr><td>reference</td><td>string</td><td>No</td><td>Up to 64 characters, printed on the label</td></tr>
    <tr><td>insurance_value</td><td>money</td><td>No</td><td>Amount in minor units with a currency</td></tr>
  </tbody>
</table>

<h3>2.2 Cancel a shipment</h3>
<p><code>POST /shipments/{id}/cancel</code> cancels a draft at once. A purchased shipment can be cancelled until the
carrier scans it; the label price is refunded within 14 days. Cancelling twice is not an error.</p>

<h2>3. Tracking</h2>
<p>Tracking events arrive from carriers in batches, so a parcel may show several events at once. Events are never
edited; a correction arrives as a new event.</p>

<h3>3.1 Event types</h3>
<ul>
  <li><strong>accepted</strong>: the carrier has the parcel.</li>
  <li><strong>in_transit</strong>: the parcel moved between depots.</li>
  <li><strong>out_for_delivery</strong>: on the van today.</li>
  <li><strong>delivered</strong>: handed over or left in the agreed place.</li>
  <li><strong>exception</strong>: held, damaged or refused; the <code>detail</code> field says why.</li>
</ul>

<h3>3.2 Webhooks</h3>
<p>Register an HTTPS endpoint to receive events as they arrive. Each delivery is signed with HMAC-SHA256 over the raw
body; compare the <code>Parcelpost-Signature</code> header in constant time before trusting it. Failed deliveries are
retried with exponential backoff for three days.</p>

<h2>4. Errors</h2>
<table>
  <caption>Error codes</caption>
  <thead>
    <tr><th>Status</th><th>Code</th><th>Meaning</th></tr>
  </thead>
  <tbody>
    <tr><td>400</td><td>invalid_request</td><td>A field is missing or malformed; <code>param</code> names it</td></tr>
    <tr><td>402</td><td>insufficient_funds</td><td>The label could not be charged</td></tr>
    <tr><td>404</td><td>not_found</td><td>No such object for this account</td></tr>
    <tr><td>409</td><td>conflict</td><td>The shipment changed state meanwhile; fetch it and try again</td></tr>
    <tr><td>422</td><td>unserviceable</td><td>No service reaches this address with this parcel</td></tr>
  </tbody>
</table>
<p>Every error body has <code>code</code>, <code>message</code> and a <code>request_id</code> to quote when you contact
support.</p>
</body>
</html>
`;
