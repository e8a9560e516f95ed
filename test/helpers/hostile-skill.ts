// A SKILL.md body that tries every way its author could run script or load a remote resource in a reader's browser:
// the page's tests render it and check that nothing of it acts.

export const HOSTILE_BODY = [
  '# Hostile',
  '',
  '<script>alert("script")</script>',
  '',
  '<img src="x" onerror="alert(\'onerror\')">',
  '',
  '[js](javascript:alert("link")) [vb](vbscript:msgbox) [data](data:text/html,<b>x</b>) <javascript:alert(1)>',
  '',
  '![remote](https://images.example/pixel.png) ![protocol-relative](//images.example/p.png)',
  '',
  '![inline](data:image/png;base64,iVBORw0KGgo=)',
  '',
  '[reference](reference.md) [elsewhere](https://example.com/docs) [up](../other/SKILL.md)',
  '',
].join('\n');
