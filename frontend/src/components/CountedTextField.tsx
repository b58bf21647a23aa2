import TextField, { type TextFieldProps } from '@mui/material/TextField';

export type HintedTextFieldProps = Omit<TextFieldProps, 'error' | 'helperText'> & {
  /** The line under the field while it is valid. */
  hint: string;
  /** Marks the field invalid and stands in place of the hint. */
  errorText?: string | null;
};

/** A text field whose line underneath is its hint, or its error when there is one. */
export function HintedTextField({ hint, errorText, ...props }: HintedTextFieldProps) {
  return <TextField {...props} error={Boolean(errorText)} helperText={errorText ?? hint} />;
}

export type CountedTextFieldProps = Omit<HintedTextFieldProps, 'value' | 'hint'> & {
  value: string;
  maxLength: number;
};

const count = (n: number) => n.toLocaleString('en-US');

/** A text field that cannot outgrow `maxLength` and shows how much of it is used ("1,234/5,000"). */
export function CountedTextField({ value, maxLength, slotProps, ...props }: CountedTextFieldProps) {
  return (
    <HintedTextField
      {...props}
      value={value}
      hint={`${count(value.length)}/${count(maxLength)}`}
      slotProps={{ ...slotProps, htmlInput: { maxLength } }}
    />
  );
}
