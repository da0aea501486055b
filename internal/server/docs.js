"use strict";
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function resolve(doc, s) {
  if (s && s.$ref) return { name: s.$ref.split("/").pop(), schema: doc.components.schemas[s.$ref.split("/").pop()] };
  return { name: "", schema: s };
}
function show(doc, parent, label, s) {
  if (!s) return;
  const r = resolve(doc, s);
  const d = el("details");
  d.appendChild(el("summary", {}, label + (r.name ? " (" + r.name + ")" : "")));
  d.appendChild(el("pre", {}, JSON.stringify(r.schema, null, 2)));
  parent.appendChild(d);
}
fetch("/openapi.json").then(r => r.json()).then(doc => {
  document.getElementById("intro").textContent = doc.info.description;
  const byTag = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags || ["other"])[0];
      (byTag[tag] = byTag[tag] || []).push({ path, method: method.toUpperCase(), op });
    }
  }
  const root = document.getElementById("ops");
  for (const [tag, ops] of Object.entries(byTag)) {
    root.appendChild(el("h2", {}, tag));
    for (const { path, method, op } of ops) {
      const box = el("div", { class: "op", id: op.operationId });
      box.appendChild(el("span", { class: "m " + method }, method));
      box.appendChild(el("code", {}, path));
      if (op.security) box.appendChild(el("span", { class: "lock" }, "token"));
      box.appendChild(el("div", {}, op.summary));
      if (op.parameters) {
        const ul = el("ul");
        for (const p of op.parameters) ul.appendChild(el("li", {}, p.name + " (" + p.in + ", " + p.schema.type + ")" + (p.description ? ": " + p.description : "")));
        box.appendChild(ul);
      }
      if (op.requestBody) show(doc, box, "request body", op.requestBody.content["application/json"].schema);
      for (const [code, resp] of Object.entries(op.responses)) {
        if (resp.content && resp.content["application/json"]) show(doc, box, "response " + code, resp.content["application/json"].schema);
      }
      root.appendChild(box);
    }
  }
  // The files a request may carry as objects: their whole schemas.
  root.appendChild(el("h2", {}, "files"));
  for (const [name, label] of [["Workload", "workload file (gpupick schema workload)"], ["Service", "service file (gpupick schema service)"]]) {
    if (doc.components.schemas[name]) show(doc, root, label, { $ref: "#/components/schemas/" + name });
  }
}).catch(err => { document.getElementById("intro").textContent = "Cannot load /openapi.json: " + err; });
