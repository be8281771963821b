// Runs before the first paint so a dark system (or a stored choice) never flashes a white page.
(() => {
  try {
    const stored = localStorage.getItem('sightline.theme');
    const dark =
      stored === 'dark' ||
      ((stored === null || stored === 'system') && matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch {
    /* storage unavailable: the app sets the class once it starts */
  }
})();
