import { useEffect, useId, useState } from 'react';
import { isWideRange, proportionalStep, sliderPresets } from '../../state/sliderSteps';
import { optionSpec, type ControlSpec, type OptionGroup, type OptionSpec } from '../../core/optionTable';
import type { Config, ConfigName } from '../../state/configSlice';
import { optionApplies, optionInUse } from '../../state/strategyInfo';
import { selectConfig, selectStrategy } from '../../state/selectors';
import { useStore } from '../../state/store';
import { unitLabel } from './format';
import { genericallyDrawn } from './optionLayout';

/**
 * The generic pieces the control panels are built of: each option's field comes from its row in the option table
 * (src/core/optionRows.ts): label, kind, range, unit, placeholder, and its help as the tooltip. Which fields appear
 * is the strategy's description (its `controls`). GroupFields draws a group's options from their rows alone; the
 * few with a widget of their own are drawn by their panel (HAND_DRAWN in ./optionLayout.ts says which and why).
 */

/** An option's table row with its page control (every option the page shows has one). */
export function specOf(name: ConfigName): OptionSpec & { control: ControlSpec } {
  const spec = optionSpec(name);
  if (!spec.control) throw new Error(`option "${name}" has no page control in the option table`);
  return spec as OptionSpec & { control: ControlSpec };
}

/** The DOM id of an option's control: ctl-<flag>. */
export function fieldId(name: ConfigName): string {
  return `ctl-${optionSpec(name).flag}`;
}

/** Whether the option's control is shown for the current strategy and values. */
export function useShown(name: ConfigName): boolean {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const spec = optionSpec(name);
  return optionApplies(spec, strategy) && optionInUse(spec, config);
}

/** The unit shown after an option's number: the chosen size unit, or the table's own (sentences, tokens). */
export function unitText(control: ControlSpec, config: Config, strategyUnit: string | undefined, unitApplies: boolean): string | null {
  if (!control.unit) return null;
  if (control.unit === 'unit') return unitLabel(unitApplies ? config.unit : (strategyUnit ?? config.unit));
  return control.unit;
}

export function Field({ name, label, htmlFor, children }: { name: ConfigName; label?: string; htmlFor?: string; children: React.ReactNode }) {
  const spec = specOf(name);
  return (
    <div className="field">
      <label htmlFor={htmlFor ?? fieldId(name)} title={spec.help}>
        {label ?? spec.control.label}
      </label>
      {children}
    </div>
  );
}

/** A select over the option's choices (or the values given), with titles for the values. */
export function SelectField(props: {
  name: ConfigName;
  value: string | number;
  values: readonly (string | number)[];
  title?: (value: string | number) => string;
  label?: string;
  id?: string;
  disabled?: boolean;
  onChange: (value: string) => void;
  children?: React.ReactNode;
}) {
  const { name, value, values, title, label, id, disabled, onChange, children } = props;
  return (
    <Field name={name} label={label} htmlFor={id}>
      <select id={id ?? fieldId(name)} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {values.map((v) => (
          <option key={v} value={v}>
            {title ? title(v) : String(v)}
          </option>
        ))}
      </select>
      {children}
    </Field>
  );
}

/** A checkbox with the option's label. */
export function CheckField(props: { name: ConfigName; checked: boolean; disabled?: boolean; label?: string; onChange: (checked: boolean) => void }) {
  const { name, checked, disabled, label, onChange } = props;
  const spec = specOf(name);
  return (
    <label className={disabled ? 'is-disabled' : ''} title={spec.help}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label ?? spec.control.label}</span>
    </label>
  );
}

/** Slider plus number box (the table's slider control); the box keeps what the user types until it is a number. */
export function RangeField(props: { name: ConfigName; unit: string; max: number; value: number; onChange: (n: number) => void }) {
  const { name, unit, max, value, onChange } = props;
  const spec = specOf(name);
  const { label } = spec.control;
  const min = spec.control.min ?? 0;
  const step = spec.control.step ?? 1;
  const id = useId();
  const wide = isWideRange(min, max);
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(Number.isFinite(value) ? String(value) : ''), [value]);
  return (
    <div className="field">
      <label htmlFor={`${id}-range`} title={spec.help}>
        {label}
      </label>
      <div className="range-row">
        <input
          id={`${id}-range`}
          type="range"
          aria-label={label}
          min={min}
          max={max}
          step={step}
          value={Number.isFinite(value) ? Math.min(value, max) : min}
          list={wide ? `${id}-presets` : undefined}
          onChange={(e) => onChange(Number(e.target.value))}
          onKeyDown={wide ? (e) => {
            // A wide range (size 1..4,000) moves in steps proportional to the value (src/state/sliderSteps.ts).
            const dir = e.key === 'ArrowRight' || e.key === 'ArrowUp' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowDown' ? -1 : 0;
            if (!dir) return;
            e.preventDefault();
            onChange(proportionalStep(value, dir, min, max));
          } : undefined}
        />
        {wide && (
          <datalist id={`${id}-presets`}>
            {sliderPresets(min, max).map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        )}
        <span className="number-box">
          <input
            type="number"
            inputMode="numeric"
            aria-label={`${label} value`}
            min={min}
            step={step}
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              const n = e.target.value.trim() === '' ? NaN : Number(e.target.value);
              if (Number.isFinite(n)) onChange(n);
            }}
          />
          <span className="unit">{unit}</span>
        </span>
      </div>
    </div>
  );
}

/**
 * A number box from the table's number control: empty means null (the default) where the option may be unset,
 * else the box keeps what the user types until it is a number.
 */
export function NumberField(props: {
  name: ConfigName;
  value: number | null;
  unit?: string | null;
  placeholder?: string;
  step?: number;
  label?: string;
  disabled?: boolean;
  hint?: string;
  sub?: boolean;
  /** The value in effect while the option is unset (a mode's default): shown as the value, not as a grey hint. */
  unsetShows?: number;
  onChange: (n: number | null) => void;
}) {
  const { name, value, unit, placeholder, step, label, disabled, hint, sub, unsetShows, onChange } = props;
  const spec = specOf(name);
  const { control } = spec;
  const integer = spec.kind === 'integer';
  const unsetText = unsetShows === undefined ? '' : String(unsetShows);
  const [draft, setDraft] = useState(value === null ? unsetText : String(value));
  // A change from elsewhere (a link, the curve) replaces the draft; the person's own typing does not come back here.
  useEffect(
    () =>
      setDraft((current) =>
        (current.trim() !== '' && Number(current) === value) || (current.trim() === '' && value === null) ? current : value === null ? unsetText : String(value),
      ),
    [value, unsetText],
  );
  const input = (
    <input
      id={fieldId(name)}
      type="number"
      inputMode={integer ? 'numeric' : 'decimal'}
      step={step ?? control.step ?? 1}
      min={control.min}
      max={control.max}
      placeholder={placeholder ?? control.placeholder}
      disabled={disabled}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        const raw = e.target.value.trim();
        if (raw === '') return onChange(null);
        const n = Number(raw);
        if (Number.isFinite(n)) onChange(n);
      }}
    />
  );
  return (
    <div className={sub ? 'sub-field' : 'field'}>
      <label htmlFor={fieldId(name)} title={spec.help}>
        {label ?? control.label}
      </label>
      {unit ? (
        <span className="number-box">
          {input}
          <span className="unit">{unit}</span>
        </span>
      ) : (
        input
      )}
      {hint && <p className="hint">{hint}</p>}
    </div>
  );
}

/** A text box that keeps what the person types and passes it on at once (the engine validates it). */
export function TextDraft(props: { id: string; value: string; placeholder?: string; label?: string; className?: string; onCommit: (value: string) => void }) {
  const { id, value, placeholder, label, className, onCommit } = props;
  const [draft, setDraft] = useState(value);
  // A change from elsewhere (a link, Reset) replaces the draft; the person's own typing does not come back here.
  useEffect(() => setDraft((current) => (current === value ? current : value)), [value]);
  return (
    <input
      id={id}
      type="text"
      className={className ?? 'text-input'}
      aria-label={label}
      spellCheck={false}
      autoComplete="off"
      placeholder={placeholder}
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        onCommit(e.target.value);
      }}
    />
  );
}

/** The options of a group that have no hand-drawn widget, each drawn from its row (see ./optionLayout.ts). */
export function GroupFields({ group }: { group: OptionGroup }) {
  return (
    <>
      {genericallyDrawn(group).map((spec) => (
        <ShownOptionField key={spec.name} name={spec.name as ConfigName} />
      ))}
    </>
  );
}

function ShownOptionField({ name }: { name: ConfigName }) {
  return useShown(name) ? <OptionField name={name} /> : null;
}

/** The row's help as the line under a control: one text for --help, the tooltip and the page. */
function helpLine(spec: OptionSpec): string {
  return spec.help.charAt(0).toUpperCase() + spec.help.slice(1) + (/[.)]$/.test(spec.help) ? '' : '.');
}

/** One option drawn by its control's kind: checkbox, number box, select over its choices (or range), slider, text. */
export function OptionField({ name }: { name: ConfigName }) {
  const config = useStore(selectConfig);
  const strategy = useStore(selectStrategy);
  const setConfig = useStore((s) => s.setConfig);
  const unitApplies = useShown('unit');
  const spec = specOf(name);
  const { control } = spec;
  const value = config[name] as unknown;
  const set = (next: unknown) => setConfig({ [name]: next } as Partial<Config>);
  const unit = unitText(control, config, strategy.defaults.unit, unitApplies);
  const hint = helpLine(spec);
  switch (control.kind) {
    case 'checkbox':
      return (
        <div className="field field-check">
          <CheckField name={name} checked={value === true} onChange={set} />
          <p className="hint">{hint}</p>
        </div>
      );
    case 'number':
      return <NumberField name={name} value={typeof value === 'number' ? value : null} unit={unit} hint={hint} onChange={(n) => set(n ?? (spec.default as number | null))} />;
    case 'select': {
      const values = spec.choices ?? Array.from({ length: (control.max ?? 0) - (control.min ?? 0) + 1 }, (_, i) => (control.min ?? 0) + i);
      return (
        <SelectField name={name} value={value as string | number} values={values} onChange={(v) => set(spec.kind === 'integer' ? Number(v) : v)}>
          <p className="hint">{hint}</p>
        </SelectField>
      );
    }
    case 'slider':
      return <RangeField name={name} unit={unit ?? ''} max={control.max ?? 100} value={value as number} onChange={set} />;
    case 'text':
      return (
        <Field name={name}>
          <TextDraft id={fieldId(name)} value={typeof value === 'string' ? value : ''} placeholder={control.placeholder} onCommit={(text) => set(text.trim() === '' ? spec.default : text)} />
          <p className="hint">{hint}</p>
        </Field>
      );
    default:
      throw new Error(`option "${name}": a ${control.kind} control needs a hand-drawn widget (HAND_DRAWN in ./optionLayout.ts)`);
  }
}
