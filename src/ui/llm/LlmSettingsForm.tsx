import { useEffect, useId, useState } from 'react';
import { DEFAULT_TEMPLATES, LLM_FEATURES, LLM_PROVIDERS, type TemplateId } from '../../core/llm';
import type { LlmSettings } from '../../state/llmSettings';
import { useStore } from '../../state/store';

/** Whether this browser has Chrome's Prompt API (the built-in model is offered only then). */
export function hasBuiltInModel(): boolean {
  return typeof (globalThis as { LanguageModel?: unknown }).LanguageModel !== 'undefined';
}

/**
 * The LLM settings: provider (an OpenAI-compatible endpoint, or Chrome's built-in model where the browser has one),
 * feature, limits, prices and the feature's prompt template. Every field is a labelled native control.
 */
export function LlmSettingsForm() {
  const settings = useStore((s) => s.llmSettings);
  const set = useStore((s) => s.setLlmSettings);
  const builtIn = hasBuiltInModel();
  // The page offers the two providers it has settings for (transformers-js is the library's: docs/llm.md).
  const providers = LLM_PROVIDERS.filter((p) => p.name === 'openai-compatible' || (p.name === 'prompt-api' && builtIn));
  const endpoint = settings.provider !== 'prompt-api';
  return (
    <div className="llm-settings">
      <fieldset className="llm-fieldset">
        <legend>Model</legend>
        <div role="radiogroup" aria-label="Provider" className="llm-radios">
          {providers.map((p) => (
            <label key={p.name} title={p.help}>
              <input type="radio" name="llm-provider" value={p.name} checked={settings.provider === p.name} onChange={() => set({ provider: p.name })} />{' '}
              {p.name === 'openai-compatible' ? 'OpenAI-compatible endpoint' : 'Chrome built-in model'}
            </label>
          ))}
        </div>
        {endpoint ? <EndpointFields settings={settings} /> : <BuiltInStatus />}
      </fieldset>
      <fieldset className="llm-fieldset">
        <legend>Feature</legend>
        <label className="llm-field">
          <span>Feature</span>
          <select value={settings.feature} onChange={(e) => set({ feature: e.target.value as LlmSettings['feature'] })}>
            {LLM_FEATURES.map((f) => (
              <option key={f.name} value={f.name} title={f.help}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <p className="llm-help">{LLM_FEATURES.find((f) => f.name === settings.feature)?.help}</p>
        <div className="llm-row">
          <NumberInput label="Concurrency" value={endpoint ? settings.concurrency : 1} min={1} max={64} step={1} disabled={!endpoint} onChange={(n) => set({ concurrency: Math.floor(n) })} />
          <NumberInput label="Timeout (s)" value={settings.timeoutS} min={1} max={3600} step={1} onChange={(n) => set({ timeoutS: n })} />
        </div>
        <div className="llm-row">
          <NumberInput label="Price in ($/M tokens)" value={settings.priceIn} min={0} max={1e6} step={0.01} onChange={(n) => set({ priceIn: n })} />
          <NumberInput label="Price out ($/M tokens)" value={settings.priceOut} min={0} max={1e6} step={0.01} onChange={(n) => set({ priceOut: n })} />
        </div>
      </fieldset>
      <TemplateEditor settings={settings} />
    </div>
  );
}

function EndpointFields({ settings }: { settings: LlmSettings }) {
  const set = useStore((s) => s.setLlmSettings);
  const apiKey = useStore((s) => s.llmApiKey);
  const remember = useStore((s) => s.llmRememberKey);
  const setKey = useStore((s) => s.setLlmApiKey);
  const setRemember = useStore((s) => s.setLlmRememberKey);
  return (
    <>
      <label className="llm-field">
        <span>Base URL</span>
        <input type="url" value={settings.baseUrl} spellCheck={false} onChange={(e) => set({ baseUrl: e.target.value.trim() })} />
      </label>
      <label className="llm-field">
        <span>Model</span>
        <input type="text" value={settings.model} spellCheck={false} onChange={(e) => set({ model: e.target.value.trim() })} />
      </label>
      <label className="llm-field">
        <span>API key</span>
        <input type="password" value={apiKey} autoComplete="off" placeholder="none (local servers need none)" onChange={(e) => setKey(e.target.value.trim())} />
      </label>
      <label className="llm-check" title="Off: the key is kept in this tab's memory only and is gone after a reload">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember on this device
      </label>
    </>
  );
}

/** The built-in model's availability, and its download while the browser fetches it. */
function BuiltInStatus() {
  const [availability, setAvailability] = useState<string>('checking…');
  const download = useStore((s) => s.llmRun.download);
  useEffect(() => {
    let live = true;
    const api = (globalThis as { LanguageModel?: { availability(): Promise<string> } }).LanguageModel;
    (api ? api.availability() : Promise.resolve('unavailable')).then(
      (a) => live && setAvailability(a),
      () => live && setAvailability('unavailable'),
    );
    return () => {
      live = false;
    };
  }, []);
  const words: Record<string, string> = {
    available: 'available: ready on this device',
    downloadable: 'downloadable: the browser fetches it on the first Run',
    downloading: 'downloading',
    unavailable: 'unavailable on this device',
  };
  return (
    <p className="llm-help" role="status">
      Built-in model: {words[availability] ?? availability}
      {download !== null && download < 1 && ` (download ${Math.round(download * 100)}%)`}. Nothing leaves this machine.
    </p>
  );
}

function NumberInput({ label, value, min, max, step, disabled, onChange }: { label: string; value: number; min: number; max: number; step: number; disabled?: boolean; onChange: (n: number) => void }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  return (
    <label className="llm-field llm-number">
      <span>{label}</span>
      <input
        type="number"
        value={text}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        onChange={(e) => {
          setText(e.target.value);
          const n = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(n) && n >= min && n <= max && (min > 0 ? n > 0 : true)) onChange(n);
        }}
      />
    </label>
  );
}

/** The selected feature's prompt template: visible, editable, and "Reset to default" one click away. */
function TemplateEditor({ settings }: { settings: LlmSettings }) {
  const set = useStore((s) => s.setLlmSettings);
  const id = settings.feature as TemplateId;
  const base = DEFAULT_TEMPLATES[id];
  const systemId = useId();
  const textId = useId();
  if (!base) return null;
  const edited = settings.templates[id];
  const current = edited ?? { system: base.system, text: base.text };
  const update = (patch: Partial<{ system: string; text: string }>) => {
    const next = { ...current, ...patch };
    const templates = { ...settings.templates };
    if (next.system === base.system && next.text === base.text) delete templates[id];
    else templates[id] = next;
    set({ templates });
  };
  const reset = () => {
    const templates = { ...settings.templates };
    delete templates[id];
    set({ templates });
  };
  return (
    <fieldset className="llm-fieldset">
      <legend>
        Prompt template <span className="muted small">({id}, version {base.version}{edited ? ', edited' : ''})</span>
      </legend>
      <label htmlFor={systemId} className="llm-label">
        System line
      </label>
      <input id={systemId} type="text" className="llm-template-system" value={current.system} spellCheck={false} onChange={(e) => update({ system: e.target.value })} />
      <label htmlFor={textId} className="llm-label">
        Prompt <span className="muted small">(placeholders in braces)</span>
      </label>
      <textarea id={textId} className="llm-template-text" rows={6} value={current.text} spellCheck={false} onChange={(e) => update({ text: e.target.value })} />
      <button type="button" className="btn" disabled={!edited} onClick={reset}>
        Reset to default
      </button>
    </fieldset>
  );
}
