import { useEffect, useState } from 'react';

interface CountdownProps {
  from: number;
  label: (count: number) => string;
  onDone: () => void;
}

/** 3-2-1 before the shot; each second is announced once for screen readers. */
export function Countdown({ from, label, onDone }: CountdownProps) {
  const [count, setCount] = useState(from);
  useEffect(() => {
    if (count <= 0) {
      onDone();
      return;
    }
    const timer = setTimeout(() => setCount((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [count, onDone]);
  return (
    <div className="countdown" role="status" aria-live="assertive">
      <span className="countdown__number" key={count} aria-hidden="true">
        {Math.max(count, 1)}
      </span>
      <span className="visually-hidden">{label(Math.max(count, 1))}</span>
    </div>
  );
}
