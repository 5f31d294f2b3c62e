import { Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Pages of a list answered in the API's pagination envelope (`last_page`): nothing when there is
 * one page; otherwise Mantine's pagination with every control named ("Next page", "Page 3").
 */
export function PagePicker(props: { lastPage: number; page: number; onChange: (page: number) => void }) {
  const { t } = useTranslation('common');
  if (props.lastPage <= 1) return null;
  return (
    <Pagination
      total={props.lastPage}
      value={props.page}
      onChange={props.onChange}
      getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
      getItemProps={(page) => ({ 'aria-label': t('pagination.page', { page }) })}
    />
  );
}
