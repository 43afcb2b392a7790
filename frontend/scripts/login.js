// The sign-in page's light/dark switch: the page keeps no session, so the choice goes into a cookie of its own,
// which the dashboard reads once signed in. Until one is made, the browser's preference decides.
(function () {
  var root = document.documentElement;
  var toggle = document.getElementById('theme-toggle');
  var chosen = /(?:^|; )lifeline-theme=(dark|light)/.exec(document.cookie);
  function apply(dark) {
    if (dark) { root.setAttribute('theme', 'dark'); } else { root.removeAttribute('theme'); }
    toggle.setAttribute('aria-pressed', String(dark));
    toggle.title = dark ? 'Switch to the light theme' : 'Switch to the dark theme';
  }
  if (!chosen && window.matchMedia) {
    apply(window.matchMedia('(prefers-color-scheme: dark)').matches);
  }
  toggle.addEventListener('click', function () {
    var dark = root.getAttribute('theme') !== 'dark';
    apply(dark);
    document.cookie = 'lifeline-theme=' + (dark ? 'dark' : 'light') + '; path=/; max-age=31536000; SameSite=Lax';
  });
  var input = document.getElementById('token-input');
  if (input) { input.focus(); }
})();
